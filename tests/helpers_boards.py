"""Our own transcription of the six starter configurations, shared by the map tests and the benchmarks.

One string of terrain letters per row (C clear, F forest, H hill, T town, M marsh, P pond), rows A-K
from west to east; the 15-hex rows are the indented ones. It is kept apart from the map files, so that
the tests comparing the two can fail.
"""

from __future__ import annotations

#: Our transcription of the six boards: rows A-K, west to east, and the objective of each.
EXPECTED: dict[int, tuple[str, tuple[str, ...]]] = {
    1: (
        "E9",
        (
            "FCCFCCFHCFFCCCCC",
            "FCCFCCFCCFCCCCC",
            "CFCCFCCCCCCCPCTT",
            "CFCCFCTCCCCPMCT",
            "CCCCCCTCFFCFMCTT",
            "CCCCCCCCCCCCCCC",
            "TTCCCCCCCCCCCCCC",
            "TTCCCCCCCCCCCCM",
            "TTCCCCCCCCCCCCMC",
            "TCCCFCCCHTCCCCF",
            "CCCFFCCCCHHCCCCC",
        ),
    ),
    2: (
        "E9",
        (
            "CTCCCCCCHCCCCCCC",
            "TCFCCFCCHCFCCCC",
            "CCCFCCFCCCCCMCFC",
            "FCCFCCFCCCCMCFC",
            "HFCCFCCFHHCCMCCH",
            "CCCCCCCCCCCCCCC",
            "CFFCCCCCCFFCCCCC",
            "CFCCCCCCCFCCCCC",
            "CCCCCCCHCCCCPCTT",
            "CCCCCCHCCCCPMCT",
            "CCCCCCCCFFCFMCTT",
        ),
    ),
    3: (
        "G9",
        (
            "CCCCCCHHCCCCCCCC",
            "CCCCCCHCCCCCCCM",
            "CCHHCCCCCCCCCCMC",
            "CCHHCCCCHTCCCCF",
            "CCHHCCCCCHHCCCCC",
            "CCCCCCCCCCCCCCC",
            "CFFCCCCCHHCCCPCC",
            "CFCCCCCCHCCCCPC",
            "CCCCCCCHCCCCCCCC",
            "CCCCCCHCCTFCCCC",
            "CCCCCCCCCTFFCCCC",
        ),
    ),
    4: (
        "H9",
        (
            "HCCCCCCCFCCFCCFH",
            "HCFCCCCCFCCFCCF",
            "CCCCMCFCCFCCFCCC",
            "CCCMCFCCCFCCFCT",
            "HHCCMCCHCCCCCCTC",
            "CCCCCCCCCCCCCCC",
            "CFFCCCCCTTCCCCCC",
            "CFCCCCCCTTCCCCC",
            "CCCCPCTTTTCCCCCC",
            "CCCPMCTCTCCCFCC",
            "FFCFMCTTCCCFFCCC",
        ),
    ),
    5: (
        "E9",
        (
            "CFFCCCCCHCCCCCCC",
            "CFCCCCCCHCFCCCC",
            "CCCCCCCHCCCCMCFC",
            "CCCCCCHCCCCMCFC",
            "CCCCCCCCHHCCMCCH",
            "CCCCCCCCCCCCCCC",
            "CCCCHHCCCFFCCCCC",
            "CCCHHCCCCFCCCCC",
            "CCCCHHCCCCCCPCTT",
            "HCCCCCCCCCCPMCT",
            "HHCCCCCCFFCFMCTT",
        ),
    ),
    6: (
        "D7",
        (
            "CCCCCCCCCFFCCCCC",
            "CCCCCCMCCFCCCCC",
            "CCCCCCMCCCCCCCCH",
            "HTCCCCFCCCCCCCH",
            "CHHCCCCCCCCCCCCC",
            "CCCCCCCCCCCCCCC",
            "HHCCCPCCCCCCHHCC",
            "HCCCCPCCCCCHHCC",
            "CCCCCCCCCCCCHHCC",
            "CTFCCCCCHCCCCCC",
            "CTFFCCCCHHCCCCCC",
        ),
    ),
}
