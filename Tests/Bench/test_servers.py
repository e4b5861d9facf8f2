"""What the bench reads of its servers and writes for them: vouchd's port, the receiver's log, wrk's intake script,
the checks of stored records and the settings it takes."""

import pytest

from bench import feedback, postgres, vouchd, webhooks
from bench.report import BenchFailure
from bench.settings import Settings


def test_vouchd_port_from_its_log(sample):
    assert vouchd.listening_port(sample("vouchd-start.log")) == "39753"
    assert vouchd.listening_port('ts=… level=info msg=listening http.host=::1 http.port="8080"\n') == "8080"
    assert vouchd.listening_port('ts=… level=info msg="database open"\n') == ""


def test_receiver_log(sample):
    log = webhooks.ReceiverLog.parse(sample("receiver-access.log"))
    assert log.received == 6  # the probe and the other path are not deliveries
    assert log.answered_204 == 6
    assert sorted(set(log.connections)) == ["2", "3"]
    assert log.requests_per_connection == "3 3"
    assert webhooks.ReceiverLog.milliseconds(log.lines[0]) == 1796400078727


def test_delivery_rates():
    # 5,000 deliveries, the first arriving at 1,000 ms, the last at 3,000, all recorded at 3,500.
    assert webhooks.delivery_rates(5000, 1000, 3000, 3500) == ("2000", "2500")


def test_intake_script_is_the_replaced_scripts(sample):
    assert feedback.intake_lua(["t-1", "t-2"], "TOKEN") == sample("intake.lua")


@pytest.mark.parametrize("records, answered, stored", [
    (1000, 1000, True), (1032, 1000, True), (1033, 1000, False), (999, 1000, False),
])
def test_every_answered_record_was_stored(records, answered, stored):
    assert feedback.records_stored_are_answered(records, answered, 16) is stored


def test_database_url_in_the_same_cluster():
    url = "postgresql:///postgres?host=/tmp/x/pg&user=vouch"
    assert postgres.database_url(url, "intake") == "postgresql:///intake?host=/tmp/x/pg&user=vouch"


def test_settings_defaults():
    settings = Settings.from_environment({})
    assert (settings.parts, settings.rounds, settings.duration, settings.ofrep_settings) == ("all", 3, 10, [])


def test_settings_from_the_environment():
    settings = Settings.from_environment({"BENCH_PARTS": "1", "BENCH_ROUNDS": "5", "BENCH_STRICT": "1",
                                          "BENCH_OFREP_SETTINGS": " VOUCHD_HTTP_MAX_HEADER_BYTES=4096  VOUCHD_X= "})
    assert (settings.parts, settings.rounds, settings.strict) == ("1", 5, True)
    assert Settings.from_environment({"BENCH_PARTS": "9c"}).parts == "9c"
    assert settings.ofrep_settings == ["VOUCHD_HTTP_MAX_HEADER_BYTES=4096", "VOUCHD_X="]
    assert Settings.from_environment({"BENCH_PARTS": "5"}).parts == "5"


def test_settings_of_the_instructions_part():
    assert (Settings.from_environment({}).instruction_requests, Settings.from_environment({}).vouchd) == (10_000, "")
    settings = Settings.from_environment({"BENCH_PARTS": "instructions", "BENCH_INSTRUCTION_REQUESTS": "2000",
                                          "BENCH_VOUCHD": "/bin/true"})
    assert (settings.parts, settings.instruction_requests, settings.vouchd) == ("instructions", 2000, "/bin/true")


@pytest.mark.parametrize("environment, message", [
    ({"BENCH_PARTS": "2"}, "BENCH_PARTS is '2'; allowed: 1 (part 1 alone), 5 (part 5 alone), 7 (part 7 alone), 8 (part 8 "
                           "alone), 9 (part 9 alone), 9c (part 9c alone), 11 (part 11 alone), 12 (part 12 alone), "
                           "instructions (instructions per OFREP request), or unset for every part"),
    ({"BENCH_OFREP_SETTINGS": "HTTP_THREADS=2"},
     "BENCH_OFREP_SETTINGS holds 'HTTP_THREADS=2'; allowed: VOUCHD_NAME=value items separated by spaces"),
    ({"BENCH_ROUNDS": "three"}, "BENCH_ROUNDS is 'three'; allowed: a whole number"),
    ({"BENCH_VOUCHD": "/bin/true"},
     "BENCH_VOUCHD is for BENCH_PARTS=instructions; the other parts measure the vouchd they build"),
    ({"BENCH_PARTS": "instructions", "BENCH_VOUCHD": "/no/such/vouchd"},
     "BENCH_VOUCHD is '/no/such/vouchd'; allowed: the path of an executable vouchd"),
    ({"BENCH_PARTS": "instructions", "BENCH_INSTRUCTION_REQUESTS": "0"},
     "BENCH_INSTRUCTION_REQUESTS is '0'; allowed: a whole number above 0"),
])
def test_settings_refused(environment, message):
    with pytest.raises(BenchFailure) as refused:
        Settings.from_environment(environment)
    assert str(refused.value) == message
