"""Files read and written by the package: a write that fails midway leaves the old file byte for
byte; a file that cannot be read is a ValueError naming it, and the command prints one line."""
import os
import pathlib
import resource
import signal
import subprocess
import sys

import pytest

import gputco

DATA = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "price-formats"
VMS = DATA / "skypilot_catalog_gcp_vms_gpu_excerpt_2026-04-02.csv"


def prices(*args, file_limit=None, cwd=None):
    """`python -m gputco.prices ...` in a child process, optionally under `ulimit -f` (KiB)."""
    def limit():
        if file_limit is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit * 1024, file_limit * 1024))
    # The child imports the same package as this process, from any working folder.
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(gputco.__file__)))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([package_root, os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "gputco.prices", *map(str, args)], capture_output=True, text=True,
                          preexec_fn=limit, cwd=cwd, env=env, timeout=300)


def test_import_over_its_own_history_under_a_file_size_limit_keeps_the_catalog(tmp_path):
    # The report: `ulimit -f 64; python -m gputco.prices import skypilot vms.csv --provider gcp
    # --history catalog.json -o catalog.json` left 65,536 bytes of invalid JSON in place of the catalog.
    catalog = tmp_path / "catalog.json"
    catalog.write_text(gputco.Catalog.builtin().to_json())
    before = catalog.read_bytes()
    result = prices("import", "skypilot", VMS, "--provider", "gcp", "--history", "catalog.json", "-o", "catalog.json",
                    file_limit=64, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == 'error: path = "catalog.json": cannot be written: File too large'
    assert "Traceback" not in result.stderr
    assert catalog.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["catalog.json"]  # no temporary left behind
    # Without the limit the same command replaces it with the catalog and its new dated prices.
    result = prices("import", "skypilot", VMS, "--provider", "gcp", "--history", "catalog.json", "-o", "catalog.json",
                    cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert len(catalog.read_bytes()) > 64 * 1024
    assert catalog.read_bytes() != before
    gputco.Catalog.from_json_file(catalog)  # a whole catalog


def test_write_file_atomically_refuses_a_folder_and_keeps_a_file(tmp_path):
    with pytest.raises(ValueError, match=rf'^path = "{tmp_path}": cannot be written: Is a directory$'):
        gputco._core.write_file_atomically(str(tmp_path), "x")
    target = tmp_path / "report.json"
    gputco._core.write_file_atomically(str(target), "é" * 3)
    assert target.read_bytes() == "é".encode() * 3


def test_a_file_that_cannot_be_read_is_a_value_error_naming_it(tmp_path):
    # FileNotFoundError, IsADirectoryError and "basic_filebuf::underflow" escaped from these.
    missing = tmp_path / "missing.json"
    gone = f'^path = "{missing}": cannot be opened for reading: No such file or directory$'
    folder = f'^path = "{tmp_path}": is a directory, not a file$'
    for read in (gputco.SpotAvailability.from_json, gputco.import_aws_offer_file, gputco.load_scenario):
        with pytest.raises(ValueError, match=gone):
            read(missing)
        with pytest.raises(ValueError, match=folder):
            read(tmp_path)
    with pytest.raises(ValueError, match=gone):
        gputco.SpotAvailability.from_json(str(missing))


def test_the_import_command_prints_one_line_for_a_file_it_cannot_read(tmp_path):
    for fmt, target, reason in (("skypilot", tmp_path / "vms.csv", "cannot be opened for reading: No such file or directory"),
                                ("azure", tmp_path, "is a directory, not a file"),
                                ("aws-offer-file", tmp_path, "is a directory, not a file")):
        result = prices("import", fmt, target, "--provider", "gcp", "-o", tmp_path / "out.json")
        assert result.returncode == 2
        assert result.stderr == f'error: path = "{target}": {reason}\n'
    assert not (tmp_path / "out.json").exists()


TRACE = '{"metadata": {"gap_seconds": 3600, "values": "available"}, "data": [1, 0, 1]}'


@pytest.mark.parametrize("text, message", [
    ("[1, 0, 1]", r'^trace = "array": must be a JSON object with metadata and data$'),
    ("  null", r'^trace = "null": must be a JSON object with metadata and data$'),
    ("\n\"a\"", r'^trace = "string": must be a JSON object with metadata and data$'),
])
def test_json_text_that_is_not_a_trace_is_read_as_text_not_taken_for_a_file_name(text, message):
    with pytest.raises(ValueError, match=message):
        gputco.SpotAvailability.from_json(text)


def test_json_text_with_a_byte_order_mark_is_text(tmp_path):
    for source in ("\ufeff" + TRACE, ("\ufeff" + TRACE).encode(), TRACE.encode()):
        assert gputco.SpotAvailability.from_json(source).available_ticks() == 2
    path = tmp_path / "null"  # a file whose name is JSON is read through a path object
    path.write_bytes(("\ufeff" + TRACE).encode())
    assert gputco.SpotAvailability.from_json(path).available_ticks() == 2


OOM_CHILD = r'''
import json, resource, sys
import gputco
source, kind, copies, extra_mib = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
data = json.load(open(source))
if kind == "ec2instances":  # records under new instance types
    text = json.dumps([dict(data[i % len(data)], instance_type=f"p3.x{i}") for i in range(copies)])
    read = gputco.import_ec2instances_json
else:  # a GCP SKU page: the SKUs under new ids
    skus = data["skus"]
    text = json.dumps(dict(data, skus=[dict(skus[i % len(skus)], skuId=f"X{i}") for i in range(copies)]))
    read = gputco.import_gcp_skus
del data
size = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmSize:")) * 1024
resource.setrlimit(resource.RLIMIT_AS, (size + (extra_mib << 20), size + (extra_mib << 20)))
try:
    r = read(text, file="prices.json")
    print("ok", len(r.offerings))
except MemoryError:
    print("MemoryError")
'''


@pytest.mark.parametrize("kind, source, copies", [
    ("ec2instances", "ec2instances_info_instances_json_gpu_excerpt_2017-11-12.json", 2000),
    ("gcp", "gcp_billing_catalog_skus_excerpt_2023-03-24_opencost.json", 30000),
])
def test_an_import_out_of_memory_is_a_memory_error_not_an_abort(kind, source, copies):
    # A 750 MB ec2instances file under a 4 GB cap died of SIGABRT: nlohmann's destructor allocates,
    # and the bad_alloc of destroying the file's DOM under the cap met a noexcept. Records are read
    # one at a time now. The same at a small scale (~25 MB) under caps from tight to ample, above what
    # the process holds before the call; every outcome a clean one.
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(gputco.__file__)))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([package_root, os.environ.get("PYTHONPATH", "")])}
    outcomes = set()
    for extra_mib in (8, 32, 64, 128, 256, 512):
        result = subprocess.run([sys.executable, "-c", OOM_CHILD, str(DATA / source), kind, str(copies), str(extra_mib)],
                                capture_output=True, text=True, env=env, timeout=300)
        assert result.returncode == 0, (extra_mib, result.returncode, result.stderr[-500:])
        outcomes.add(result.stdout.split()[0])
    assert outcomes <= {"ok", "MemoryError"}
    assert "ok" in outcomes  # the sweep reaches a cap that is enough


def test_an_endless_scenario_file_is_refused_at_the_size_limit():
    # /dev/zero was read until memory ran out.
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    with pytest.raises(ValueError, match=r"^/dev/zero = 16842752: bytes: more than the limit of 16777216 \(max_bytes\)$"):
        gputco.load_scenario("/dev/zero")
