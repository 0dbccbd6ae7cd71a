"""The address the log-in limit counts: the connection's own without a proxy, and behind
PROXY_COUNT proxies the entry the outermost one appended to X-Forwarded-For, never one a
client wrote itself."""

import pytest
from django.test import RequestFactory

from tienlen_site.plumbing.clientip import client_ip

PROXY = "10.0.0.5"  # where nginx connects from


def _request(forwarded_for=None, remote=PROXY):
    headers = {} if forwarded_for is None else {"X-Forwarded-For": forwarded_for}
    return RequestFactory().post("/accounts/login/", headers=headers, REMOTE_ADDR=remote)


def test_it_ignores_forwarded_for_without_a_proxy(settings):
    settings.PROXY_COUNT = 0
    assert client_ip(_request("203.0.113.9", remote="198.51.100.7")) == "198.51.100.7"


def test_it_takes_the_address_the_proxy_appended(settings):
    settings.PROXY_COUNT = 1
    assert client_ip(_request("203.0.113.9")) == "203.0.113.9"


def test_it_ignores_entries_the_client_wrote_before_the_proxy_appended_its_own(settings):
    settings.PROXY_COUNT = 1
    assert client_ip(_request("198.51.100.1, 198.51.100.2,203.0.113.9")) == "203.0.113.9"


def test_it_counts_one_entry_per_proxy_from_the_right(settings):
    # A CDN in front of nginx: the CDN appended the client, nginx appended the CDN.
    settings.PROXY_COUNT = 2
    assert client_ip(_request("198.51.100.1, 203.0.113.9, 192.0.2.44")) == "203.0.113.9"


def test_it_takes_the_left_most_entry_when_fewer_than_the_proxies(settings):
    # A request that reached nginx without passing the CDN: nginx's entry is all there is.
    settings.PROXY_COUNT = 2
    assert client_ip(_request("203.0.113.9")) == "203.0.113.9"


@pytest.mark.parametrize("forwarded_for", [None, "", " , "])
def test_it_falls_back_to_the_connection_without_the_header(settings, forwarded_for):
    settings.PROXY_COUNT = 1
    assert client_ip(_request(forwarded_for)) == PROXY


@pytest.mark.parametrize("entry", ["unknown", "203.0.113.9:443", "999.1.1.1", "<script>"])
def test_it_falls_back_to_the_connection_for_an_entry_that_is_no_address(settings, entry):
    settings.PROXY_COUNT = 1
    assert client_ip(_request(entry)) == PROXY


def test_it_spells_one_address_one_way(settings):
    settings.PROXY_COUNT = 1
    assert client_ip(_request(" 2001:DB8:0::1 ")) == "2001:db8::1"
    settings.PROXY_COUNT = 0
    assert client_ip(_request(remote="2001:0DB8::0001")) == "2001:db8::1"
