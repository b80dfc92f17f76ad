"""`minis army check` and `minis army show` through the command line's main()."""

from __future__ import annotations

from pathlib import Path

import pytest

from minis.cli import main

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "armies" / "sample-allies.toml"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_check_a_legal_army(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "army", "check", str(SAMPLE))
    assert code == 0 and err == ""
    assert out == f"{SAMPLE}: ok, 100 points, 8 units (standard, up to 100 points)\n"


def test_check_prints_one_line_per_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    army = write(
        tmp_path / "army.toml",
        'name = "x"\nside = "axis"\n'
        'units = ["m4a1-shermann", "m4a1-sherman", "tiger-i", "pioneers", "sig-33", "light-mortar"]\n',
    )
    code, out, err = run(capsys, "army", "check", str(army))
    assert code == 1 and out == ""
    assert err.splitlines() == [
        f"{army}:3:1: 104 points, 4 over the 100-point limit",
        f"{army}:3:11: unknown card 'm4a1-shermann' (did you mean 'm4a1-sherman'?)",
        f"{army}:3:28: M4A1 Sherman is an Allied unit in an Axis army",
    ]


def test_check_reports_file_errors_with_positions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    army = write(tmp_path / "army.toml", 'name = "x"\nside = "axis"\nunits = ["tiger-i"]\nyaer = 1942\n')
    code, _, err = run(capsys, "army", "check", str(army))
    assert code == 1
    assert err == f"{army}:4:1: unknown key 'yaer' (hint: did you mean 'year'?)\n"


def test_check_exit_codes_over_several_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = write(tmp_path / "bad.toml", 'name = "x"\nside = "allies"\nunits = ["tiger-i"]\n')
    broken = write(tmp_path / "broken.toml", 'name = "x\n')
    code, out, err = run(capsys, "army", "check", str(SAMPLE), str(bad))
    assert code == 1 and out.startswith(f"{SAMPLE}: ok") and err.startswith(f"{bad}:3:11: Tiger I")
    code, out, err = run(capsys, "army", "check", str(broken), str(bad), str(SAMPLE))
    assert code == 2
    assert err.splitlines()[0].startswith(f"{broken}:1:")
    assert err.splitlines()[1] == f"{bad}:3:11: Tiger I is an Axis unit in an Allied army"
    assert out.startswith(f"{SAMPLE}: ok")
    code, _, err = run(capsys, "army", "check", str(tmp_path / "missing.toml"))
    assert code == 2 and err == f"{tmp_path / 'missing.toml'}:0:0: no such file\n"


def test_show_lists_units_total_and_points_left(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "army", "show", str(SAMPLE))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Sample Allied army (Allies, standard scenario, up to 100 points; 8 of 15 units)"
    rows = {line.split()[0]: line for line in lines[3:] if line.strip()}
    assert rows["2"].split()[-1] == "9" and "6-Pounder Antitank Gun" in rows["2"]
    assert len([line for line in lines if line[:3].strip().isdigit()]) == 8
    assert next(line for line in lines if line.strip().startswith("Total")).split()[-1] == "100"
    assert next(line for line in lines if line.strip().startswith("Left")).split()[-1] == "0"


def test_show_an_army_over_the_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    army = write(
        tmp_path / "army.toml",
        'name = "x"\nside = "axis"\nscenario = "assault-defender"\nunits = ["tiger-i", "tiger-i"]\n',
    )
    code, out, err = run(capsys, "army", "show", str(army))
    assert code == 1
    assert next(line for line in out.splitlines() if line.strip().startswith("Total")).split()[-1] == "112"
    left = next(line for line in out.splitlines() if line.strip().startswith("Left"))
    assert "32 over" in left and left.split()[-1] == "-32"
    assert err == f"{army}:3:1: 112 points, 32 over the 80-point limit\n"
