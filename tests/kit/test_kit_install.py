"""``haleakala install`` / ``uninstall`` in a sandbox root: the expected files and command
lines, a second run that changes nothing, a config that is never overwritten, and an
uninstall that keeps config and state unless --purge."""

from __future__ import annotations

import os
import re
import shutil
import stat
from pathlib import Path

import pytest
from support.paths import REPO_ROOT

from haleakala.cli import main
from haleakala.kit import install
from haleakala.kit.releases import release_name
from haleakala.kit.sources import check_checkout

REPO = REPO_ROOT
BOOT_CONFIG = (
    "# For more options and information see http://rptl.io/configtxt\n"
    "#dtparam=i2c_arm=on\n#dtparam=i2s=on\n#dtparam=spi=on\n"
    "dtparam=audio=on\ncamera_auto_detect=1\n\n[cm4]\notg_mode=1\n\n[all]\n"
)
UNIT = (
    "[Unit]\nDescription=Haleakala Companion\n\n[Service]\nType=notify\n"
    "ExecStart=/opt/haleakala/venv/bin/haleakala run --hardware pi\nUser=haleakala\n\n"
    "[Install]\nWantedBy=multi-user.target\n"
)
CHECK_UNIT = "haleakala-release-check.service"
RULE = 'SUBSYSTEM=="tty", ATTRS{idVendor}=="2e8a", GROUP="dialout", SYMLINK+="haleakala-pico"\n'


@pytest.fixture
def source(tmp_path):
    """A checkout with fixture unit and udev rule (the real ones are tested separately)."""
    src = tmp_path / "checkout"
    (src / "systemd").mkdir(parents=True)
    (src / "hw").mkdir()
    (src / "haleakala").mkdir()
    shutil.copy(REPO / "pyproject.toml", src / "pyproject.toml")
    shutil.copy(REPO / "hw" / "config.example.toml", src / "hw" / "config.example.toml")
    (src / "systemd" / "haleakala.service").write_text(UNIT)
    (src / "systemd" / "99-haleakala-pico.rules").write_text(RULE)
    shutil.copy(REPO / "systemd" / "remote.conf", src / "systemd" / "remote.conf")
    shutil.copy(REPO / "systemd" / CHECK_UNIT, src / "systemd" / CHECK_UNIT)
    (src / "haleakala" / "__init__.py").write_text('"""the package"""\n')
    (src / "README.md").write_text("# Haleakala\n")
    return src


@pytest.fixture
def root(tmp_path):
    """A fresh Raspberry Pi OS Bookworm, as far as the installer looks."""
    sandbox = tmp_path / "root"
    (sandbox / "boot" / "firmware").mkdir(parents=True)
    (sandbox / "boot" / "firmware" / "config.txt").write_text(BOOT_CONFIG)
    (sandbox / "etc").mkdir()
    (sandbox / "etc" / "group").write_text(
        "root:x:0:\ndialout:x:20:pi\naudio:x:29:pi\ngpio:x:997:pi\ni2c:x:998:pi\nspi:x:999:pi\n"
    )
    (sandbox / "etc" / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (sandbox / "var" / "lib" / "dpkg").mkdir(parents=True)
    (sandbox / "var" / "lib" / "dpkg" / "status").write_text(
        "Package: python3-venv\nStatus: install ok installed\n\n"
        "Package: i2c-tools\nStatus: deinstall ok config-files\n\n"
    )
    return sandbox


def snapshot(directory: Path) -> dict[str, bytes | str]:
    """Every file (bytes) and link (target) under ``directory``."""
    result: dict[str, bytes | str] = {}
    for path in sorted(directory.rglob("*")):
        key = str(path.relative_to(directory))
        if path.is_symlink():
            result[key] = f"-> {path.readlink()}"
        elif path.is_file():
            result[key] = path.read_bytes()
    return result


def run(command, root, source, *extra):
    return main([command, "--root", str(root), "--source", str(source), *extra])


def log_lines(root: Path) -> list[str]:
    log = root / "var" / "log" / "haleakala-install.log"
    return log.read_text().splitlines() if log.exists() else []


def release_of(source: Path, extra: str = "pi") -> str:
    return release_name(check_checkout(source).name, extra)


def build_lines(source: Path, extra: str = "pi") -> list[str]:
    """What building a release from ``source`` runs (the import check is one more line)."""
    rel = f"/opt/haleakala/releases/{release_of(source, extra)}"
    pip = f"{rel}/venv/bin/python -m pip --disable-pip-version-check"
    wheels = "--find-links /opt/haleakala/wheels"
    wheel = f"{rel}/dist/haleakala_companion-0.1.0-py3-none-any.whl"
    return [
        f"python3 -m venv --system-site-packages {rel}/venv",
        f"{pip} install -q --upgrade {wheels} 'pip>=24'",
        f"{pip} wheel -q --no-deps --wheel-dir {rel}/dist {wheels} "
        f"'haleakala-companion @ {source.resolve().as_uri()}'",
        f"{pip} wheel -q --wheel-dir /opt/haleakala/wheels {wheels} 'pip>=24' 'setuptools>=77' "
        f"wheel 'haleakala-companion[{extra}] @ file://{wheel}'",
        f"{pip} install -q --no-index {wheels} 'haleakala-companion[{extra}] @ file://{wheel}'",
    ]


def built(lines: list[str]) -> list[str]:
    """The build's lines without the import check (a Python snippet)."""
    return [line for line in lines if "/releases/" in line and " -c " not in line
            and " -m haleakala " not in line]  # fmt: skip


def test_install_writes_unit_rules_config_and_records_the_commands(root, source, capsys):
    assert run("install", root, source) == 0
    unit = root / "etc/systemd/system/haleakala.service"
    assert os.readlink(unit) == "/opt/haleakala/current/systemd/haleakala.service"
    assert (root / "opt/haleakala/current/systemd/haleakala.service").read_text() == UNIT
    assert os.readlink(root / "opt/haleakala/current") == f"releases/{release_of(source)}"
    assert os.readlink(root / "opt/haleakala/venv") == "current/venv"
    assert (root / "etc/udev/rules.d/99-haleakala-pico.rules").read_text() == RULE
    assert (root / "etc/haleakala/config.toml").read_bytes() == (
        REPO / "hw" / "config.example.toml"
    ).read_bytes()
    assert (root / "etc/modules-load.d/haleakala.conf").read_text() == "i2c-dev\n"
    link = root / "etc/systemd/system/multi-user.target.wants/haleakala.service"
    assert link.is_symlink() and str(link.readlink()) == "/etc/systemd/system/haleakala.service"
    boot = (root / "boot/firmware/config.txt").read_text()
    assert boot.startswith(BOOT_CONFIG)
    assert boot.endswith(
        "[all]\ndtparam=i2c_arm=on\ndtparam=spi=on\ncore_freq=500\ncore_freq_min=500\n"
        "# <<< haleakala\n"
    )
    assert [line for line in log_lines(root) if " -c " not in line] == [
        "apt-get update",
        "apt-get install -y --no-install-recommends python3-dev gcc libc6-dev i2c-tools "
        "espeak-ng alsa-utils",
        "useradd --system --user-group --home-dir /var/lib/haleakala --no-create-home "
        "--shell /usr/sbin/nologin --comment 'Haleakala Companion' haleakala",
        "usermod --append --groups gpio,spi,i2c,dialout,audio haleakala",
        "systemctl daemon-reload",
        "systemctl enable haleakala-release-check.service",
        *build_lines(source),
        "udevadm control --reload-rules",
        "udevadm trigger",
        "systemctl daemon-reload",
        "systemctl enable haleakala.service",
        "systemctl restart systemd-journald",
    ]
    out = capsys.readouterr().out
    assert f"+ release {release_of(source)} (haleakala-companion 0.1.0 [pi]" in out
    assert "+ service user haleakala" in out


def test_install_puts_haleakala_on_the_path_and_uninstall_takes_it_off(root, source, capsys):
    """The docs' commands run as written: /usr/local/bin/haleakala is the venv's (issue 36)."""
    assert run("install", root, source) == 0
    link = root / "usr/local/bin/haleakala"
    assert link.is_symlink() and str(link.readlink()) == "/opt/haleakala/venv/bin/haleakala"
    assert "+ linked /usr/local/bin/haleakala -> /opt/haleakala/venv/bin/haleakala" in (
        capsys.readouterr().out
    )
    assert run("uninstall", root, source) == 0
    assert not link.exists() and not link.is_symlink()


def test_someone_elses_haleakala_on_the_path_is_kept(root, source, capsys):
    own = root / "usr/local/bin/haleakala"
    own.parent.mkdir(parents=True, exist_ok=True)
    own.write_text("#!/bin/sh\necho mine\n")
    assert run("install", root, source) == 0
    assert own.read_text() == "#!/bin/sh\necho mine\n"
    out = capsys.readouterr().out
    assert "= kept /usr/local/bin/haleakala (not ours: run /opt/haleakala/venv/bin/haleakala" in out
    assert run("uninstall", root, source) == 0
    assert own.read_text() == "#!/bin/sh\necho mine\n"


def test_second_install_changes_nothing(root, source, capsys):
    assert run("install", root, source) == 0
    before = snapshot(root)
    capsys.readouterr()
    assert run("install", root, source) == 0
    assert snapshot(root) == before
    assert capsys.readouterr().out.splitlines() == [
        "= kept /etc/haleakala/config.toml (never overwritten)",
        "nothing to do: the kit is installed",
    ]


def test_existing_config_is_never_overwritten_and_decides_the_model(root, source, capsys):
    config = root / "etc/haleakala/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('model = "pi5"\n# my kit\n')
    assert run("install", root, source) == 0
    assert config.read_text() == 'model = "pi5"\n# my kit\n'
    assert built(log_lines(root)) == build_lines(source, "pi5")
    assert "core_freq" not in (root / "boot/firmware/config.txt").read_text()
    assert "= kept /etc/haleakala/config.toml (never overwritten)" in capsys.readouterr().out


def test_a_broken_existing_config_stops_install_with_one_line(root, source, capsys):
    config = root / "etc/haleakala/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('model = "pi9"\n')
    assert run("install", root, source) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "model: 'pi9' is not one of" in err[0]
    assert log_lines(root) == []


def test_a_new_unit_or_new_code_is_a_new_release_beside_the_old_one(root, source, capsys):
    """A release carries its unit: either change builds another release and switches to it
    (here, with no systemd running, without the health check: ``haleakala update`` on a
    running kit does that); the one before is kept."""
    assert run("install", root, source) == 0
    first = release_of(source)
    count = len(log_lines(root))
    (source / "systemd" / "haleakala.service").write_text(UNIT.replace("notify", "simple"))
    assert run("install", root, source) == 0
    second = release_of(source)
    assert built(log_lines(root)[count:]) == build_lines(source)
    assert os.readlink(root / "opt/haleakala/previous") == f"releases/{first}"
    assert (root / "opt/haleakala/current/systemd/haleakala.service").read_text() == UNIT.replace(
        "notify", "simple"
    )
    (source / "haleakala" / "__init__.py").write_text('"""changed"""\n')
    assert run("install", root, source) == 0
    assert os.readlink(root / "opt/haleakala/previous") == f"releases/{second}"
    assert os.readlink(root / "opt/haleakala/current") == f"releases/{release_of(source)}"
    assert "without a health check (systemd is not running here)" in capsys.readouterr().out


def test_dry_run_changes_nothing_and_says_what_it_would_do(root, source, capsys):
    before = snapshot(root)
    assert run("install", root, source, "--dry-run") == 0
    assert snapshot(root) == before
    out = capsys.readouterr().out
    assert f"would build release {release_of(source)} [pi] and switch to it" in out
    assert "would write /etc/systemd/system/haleakala-release-check.service (systemd unit)" in out
    assert "would: " not in out and "would wrote" not in out
    assert "  $ systemctl enable haleakala.service" in out


def test_uninstall_keeps_config_and_user_and_restores_config_txt(root, source, capsys):
    assert run("install", root, source) == 0
    config = root / "etc/haleakala/config.toml"
    config.write_text(config.read_text() + "# edited\n")
    count = len(log_lines(root))
    capsys.readouterr()
    assert run("uninstall", root, source) == 0
    assert log_lines(root)[count:] == [
        "systemctl disable --now haleakala.service",
        "systemctl disable haleakala-release-check.service",
        "systemctl daemon-reload",
        "udevadm control --reload-rules",
        "systemctl restart systemd-journald",
    ]
    assert not (root / "etc/systemd/system/haleakala.service").is_symlink()
    assert not (root / "etc/systemd/system/haleakala-release-check.service").exists()
    assert not (root / "etc/systemd/journald.conf.d/haleakala.conf").exists()
    assert not (root / "etc/udev/rules.d/99-haleakala-pico.rules").exists()
    assert not (root / "opt/haleakala").exists()
    assert (root / "boot/firmware/config.txt").read_text() == BOOT_CONFIG
    assert config.read_text().endswith("# edited\n")
    assert "haleakala" in (root / "etc/passwd").read_text()
    out = capsys.readouterr().out
    assert "= kept /etc/haleakala/config.toml, user haleakala (--purge deletes them)" in out
    assert run("uninstall", root, source) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "nothing to do: the kit is not installed"


def test_uninstall_purge_removes_config_state_and_user(root, source):
    assert run("install", root, source) == 0
    (root / "var/lib/haleakala").mkdir(parents=True)
    (root / "var/lib/haleakala/journal").write_bytes(b"x")
    assert run("uninstall", root, source, "--purge") == 0
    assert not (root / "etc/haleakala").exists() and not (root / "var/lib/haleakala").exists()
    assert log_lines(root)[-1] == "userdel haleakala"
    assert "haleakala" not in (root / "etc/passwd").read_text()
    assert "haleakala" not in (root / "etc/group").read_text()
    assert run("install", root, source) == 0  # and it installs again from scratch
    assert (root / "etc/haleakala/config.toml").exists()


def test_missing_groups_are_created_first(root, source):
    (root / "etc/group").write_text("root:x:0:\ngpio:x:997:\n")
    assert run("install", root, source) == 0
    lines = log_lines(root)
    assert lines[2:5] == ["groupadd --system spi", "groupadd --system i2c",
                          "groupadd --system dialout"]  # fmt: skip
    assert all(line.endswith(":haleakala") for line in (root / "etc/group").read_text()
               .splitlines() if line.split(":")[0] in install.GROUPS)  # fmt: skip


def test_without_config_txt_it_warns_and_does_the_rest(root, source, capsys):
    (root / "boot/firmware/config.txt").unlink()
    assert run("install", root, source) == 0
    out = capsys.readouterr().out
    assert "warning: no /boot/firmware/config.txt (not Raspberry Pi OS?)" in out
    assert (root / "etc/systemd/system/haleakala.service").is_symlink()


def pi_board(root: Path, text: bytes) -> None:
    (root / "proc/device-tree").mkdir(parents=True)
    (root / "proc/device-tree/model").write_bytes(text)


def test_a_pi_whose_model_differs_from_the_config_is_refused_before_any_change(
    root, source, capsys
):
    config = root / "etc/haleakala/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('model = "pi4"\n')
    pi_board(root, b"Raspberry Pi 5 Model B Rev 1.0\0")
    before = snapshot(root)
    assert run("install", root, source) == 2
    assert snapshot(root) == before
    assert capsys.readouterr().err == (
        "haleakala install: this is a Raspberry Pi 5 Model B Rev 1.0 but "
        "/etc/haleakala/config.toml says model = 'pi4': set model = \"pi5\" there, then run "
        "install again\n"
    )


def test_a_fresh_install_writes_the_config_for_the_pi_it_runs_on(root, source):
    pi_board(root, b"Raspberry Pi 5 Model B Rev 1.0\0")
    assert run("install", root, source) == 0
    written = (root / "etc/haleakala/config.toml").read_text()
    assert 'model = "pi5"' in written and 'model = "pi4"' not in written
    assert built(log_lines(root)) == build_lines(source, "pi5")


def test_a_model_change_builds_a_release_with_that_models_packages(root, source):
    """The source is unchanged, but a Pi 5 needs the PIO NeoPixel driver the pi4 venv lacks."""
    assert run("install", root, source) == 0
    count = len(log_lines(root))
    config = root / "etc/haleakala/config.toml"
    config.write_text(config.read_text().replace('model = "pi4"', 'model = "pi5"'))
    assert run("install", root, source) == 0
    assert built(log_lines(root)[count:]) == build_lines(source, "pi5")
    assert os.readlink(root / "opt/haleakala/current") == f"releases/{release_of(source, 'pi5')}"
    count = len(log_lines(root))
    assert run("install", root, source) == 0
    assert len(log_lines(root)) == count


def test_remote_play_in_the_config_brings_its_extra_and_the_network_and_takes_them_back(
    root, source
):
    """The unit has no network (PrivateNetwork=yes); [remote] enabled adds the drop-in that
    opens it and the remote extra; disabled again, the drop-in goes."""
    assert run("install", root, source) == 0
    dropin = root / "etc/systemd/system/haleakala.service.d/remote.conf"
    assert not dropin.exists()
    count = len(log_lines(root))
    config = root / "etc/haleakala/config.toml"
    head, _, section = config.read_text().partition("[remote]\n")
    for key, value in (("enabled", "true"), ("broker", '"mqtt://pi.local/ourtable"'),
                       ("seat", '"red"'), ("host", "true")):  # fmt: skip
        section = re.sub(rf"^{key} = .*$", f"{key} = {value}", section, count=1, flags=re.M)
    on = head + "[remote]\n" + section
    config.write_text(on)
    assert run("install", root, source) == 0
    assert dropin.read_bytes() == (REPO / "systemd" / "remote.conf").read_bytes()
    text = dropin.read_text()
    assert "PrivateNetwork=no" in text and "AF_INET" in text
    lines = log_lines(root)[count:]
    assert built(lines) == build_lines(source, "pi,remote")
    assert lines[-1] == "systemctl daemon-reload"
    assert os.readlink(root / "opt/haleakala/current") == (
        f"releases/{release_of(source, 'pi,remote')}"
    )
    config.write_text(head + "[remote]\n" + section.replace("enabled = true", "enabled = false", 1))
    assert run("install", root, source) == 0
    assert not dropin.exists()
    assert run("uninstall", root, source) == 0


def test_the_remote_section_of_the_config_is_checked_when_enabled(tmp_path):
    from haleakala.config import ConfigError, load

    path = tmp_path / "config.toml"
    path.write_text('[remote]\nenabled = true\nbroker = "mqtt://u:secret@pi.local/t"\n'
                    'seat = "Red!"\n')  # fmt: skip
    with pytest.raises(ConfigError) as refused:
        load(path)
    said = str(refused.value)
    assert "remote.broker: holds a secret" in said and "password_file" in said
    assert "remote.seat" in said


def test_an_unsupported_pi_is_refused_naming_the_supported_ones(root, source, capsys):
    pi_board(root, b"Raspberry Pi 2 Model B Rev 1.1\0")
    assert run("install", root, source) == 2
    assert capsys.readouterr().err == (
        "haleakala install: this is a Raspberry Pi 2 Model B Rev 1.1, which the kit does not "
        "support: it runs on a Raspberry Pi Zero 2 W, 3, 4 or 5\n"
    )
    assert log_lines(root) == []


def test_the_test_model_override_must_name_a_model(root, source, capsys, monkeypatch):
    monkeypatch.setenv(install.TEST_MODEL_ENV, "pi9")
    assert run("install", root, source) == 2
    assert capsys.readouterr().err == (
        "haleakala install: $HALEAKALA_TEST_PI_MODEL='pi9' is not a model: use one of pi3, "
        "pi4, pi5, zero2w (or unset it on a real Pi)\n"
    )
    assert log_lines(root) == []


def test_a_venv_without_system_site_packages_is_refused_before_any_change(root, source, capsys):
    venv = root / "opt/haleakala/venv"
    venv.mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("include-system-site-packages = false\n")
    before = snapshot(root)
    assert run("install", root, source) == 2
    assert snapshot(root) == before
    assert capsys.readouterr().err == (
        "haleakala install: /opt/haleakala/venv was made without --system-site-packages: "
        "remove it (sudo rm -rf /opt/haleakala/venv) and run install again, which makes it "
        "right\n"
    )


def test_umask_000_leaves_nothing_world_writable(root, source):
    old = os.umask(0)
    try:
        assert run("install", root, source) == 0
    finally:
        os.umask(old)
    written = [p for p in root.rglob("*") if not p.is_symlink()]
    assert written
    loose = [str(p.relative_to(root)) for p in written if p.stat().st_mode & stat.S_IWOTH]
    assert loose == []


def test_python_libraries_come_from_pip_not_from_debian():
    """A python3-* library from apt would be installed again by pip (Pillow: Debian's 9.4 is
    below the project's bound), and python3-lgpio is not in Debian at all."""
    libraries = [p for p in install.APT_PACKAGES if p.startswith("python3-")]
    assert libraries == ["python3-venv", "python3-dev"]


@pytest.fixture
def host_commands(monkeypatch):
    """Installs at / in these tests must never reach the host: record instead."""
    ran: list[list[str]] = []
    from haleakala.kit import system

    monkeypatch.setattr(system.SystemRunner, "run", lambda self, argv: ran.append(list(argv)))

    def capture(self, argv, timeout=None):
        ran.append(list(argv))
        return 0, ""

    monkeypatch.setattr(system.SystemRunner, "capture", capture)
    monkeypatch.setattr(install.os, "geteuid", lambda: 0)
    monkeypatch.delenv(install.TEST_MODEL_ENV, raising=False)
    return ran


def test_on_a_machine_that_is_not_a_pi_install_is_refused(
    host_commands, source, capsys, monkeypatch, tmp_path
):
    monkeypatch.setattr(install, "DEVICE_MODEL", install.PurePosixPath(tmp_path / "no-model"))
    assert main(["install", "--source", str(source)]) == 2
    assert "this machine is not a Raspberry Pi" in capsys.readouterr().err
    assert host_commands == []


def test_on_a_machine_that_is_not_a_pi_dry_run_still_shows_the_plan(
    host_commands, source, capsys, monkeypatch, tmp_path
):
    monkeypatch.setattr(install, "DEVICE_MODEL", install.PurePosixPath(tmp_path / "no-model"))
    monkeypatch.setattr(install, "CONFIG", install.PurePosixPath(tmp_path / "config.toml"))
    assert main(["install", "--dry-run", "--source", str(source)]) == 0
    assert "would " in capsys.readouterr().out
    assert host_commands == []


@pytest.mark.skipif(
    not (REPO / "systemd" / "haleakala.service").exists(), reason="systemd/ not written yet"
)
def test_the_repository_unit_and_rules_install(root):
    assert run("install", root, REPO) == 0
    for rule in (REPO / "systemd").glob("*.rules"):
        assert (root / "etc/udev/rules.d" / rule.name).read_bytes() == rule.read_bytes()
    unit = (REPO / "systemd" / "haleakala.service").read_text()
    assert "/opt/haleakala/venv/bin/haleakala" in unit  # the venv this installer creates
    target = install.wanted_by(unit)
    assert (root / f"etc/systemd/system/{target}.wants/haleakala.service").is_symlink()
    assert run("install", root, REPO) == 0
    assert log_lines(root)[-1] == "systemctl restart systemd-journald"  # nothing new


def test_real_install_without_root_is_refused(monkeypatch, source, capsys):
    monkeypatch.setattr(install.os, "geteuid", lambda: 1000)
    assert main(["install", "--source", str(source)]) == 2
    assert "run it with sudo" in capsys.readouterr().err


def test_source_without_the_unit_is_refused(root, tmp_path, capsys):
    assert run("install", root, tmp_path) == 2
    assert "has no pyproject.toml: run from a checkout" in capsys.readouterr().err


def test_a_failing_command_names_itself():
    runner = install.runner_for(Path("/"), lambda _text: None)
    with pytest.raises(install.InstallError, match=r"'false' failed with exit status 1"):
        runner.run(["false"])
    with pytest.raises(install.InstallError, match="no-such-tool-xyz is not installed"):
        runner.run(["no-such-tool-xyz", "--version"])


def test_in_a_chroot_without_systemd_the_reloads_are_skipped_not_failed(
    source, monkeypatch, tmp_path, capsys
):
    """Installing into an image (or the virtual Pi): systemctl daemon-reload and udevadm
    control have no daemon to talk to; the files are read when the daemons start."""
    monkeypatch.setattr(install, "SYSTEMD_RUNNING", install.PurePosixPath(tmp_path / "none"))
    installer = install.Installer(root=Path("/"), source=source, say=print)
    assert not installer.running("systemd", install.SYSTEMD_RUNNING)
    assert "systemd is not running here" in capsys.readouterr().out
    (tmp_path / "none").mkdir()
    assert installer.running("systemd", install.SYSTEMD_RUNNING)


@pytest.mark.parametrize("command", ["install", "update"])
def test_the_installer_runs_on_debians_bare_python_before_any_dependency_is_installed(command):
    """A maker runs ``python3 -m haleakala install`` on a fresh Pi: no venv yet, so none of the
    package's dependencies (Babel, Pillow, pygame, ...) exist. Importing the command line and
    the installer must not need them; the test hides every third-party package the package
    depends on and asks the installer for its plan."""
    import subprocess
    import sys

    hidden = ["babel", "PIL", "pygame", "serial", "gpiozero", "luma", "hypothesis", "aiohttp"]
    code = (
        "import sys, runpy\n"
        f"for name in {hidden!r}: sys.modules[name] = None\n"
        f"sys.argv = ['haleakala', '{command}', '--help']\n"
        "runpy.run_module('haleakala', run_name='__main__')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=REPO_ROOT
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "--root" in done.stdout
