"""The one answer to a poll (tienlen_site.plumbing.poll): its tag, the weak comparison, 304 or a
render."""

from django.http import HttpResponse
from django.test import RequestFactory
from django.utils import translation

from tienlen_site.plumbing.poll import poll_etag, poll_response

TAG = '"7-vi"'


def _poll(if_none_match: str | None = None) -> tuple[HttpResponse, list[int]]:
    headers = {"HX-Request": "true"}
    if if_none_match is not None:
        headers["If-None-Match"] = if_none_match
    request = RequestFactory().get("/", headers=headers)
    renders: list[int] = []

    def render() -> HttpResponse:
        renders.append(1)
        return HttpResponse("board")

    return poll_response(request, TAG, render), renders


def test_it_answers_304_without_rendering_when_the_tag_holds():
    response, renders = _poll(TAG)
    assert response.status_code == 304 and not response.content and not renders
    assert response["ETag"] == TAG


def test_it_compares_weakly_as_gzip_weakens_the_tag_it_sent():
    assert _poll(f"W/{TAG}")[0].status_code == 304


def test_it_finds_its_tag_in_a_list_and_answers_a_star():
    assert _poll(f'"1-vi", {TAG}')[0].status_code == 304
    assert _poll("*")[0].status_code == 304


def test_it_renders_once_and_tags_the_answer_when_the_tag_is_old():
    for header in (None, '"6-vi"', '"7-vi-x"', "7-vi", "garbage"):
        response, renders = _poll(header)
        assert response.status_code == 200 and response.content == b"board", header
        assert renders == [1] and response["ETag"] == TAG


def test_it_keeps_the_browsers_cache_out_and_varies_on_htmx():
    for header in (TAG, '"old"'):
        response, _renders = _poll(header)
        assert "no-cache" in response["Cache-Control"] and "private" in response["Cache-Control"]
        assert "HX-Request" in response["Vary"]


def test_the_tag_names_version_parts_language_and_a_hash_of_the_token():
    with translation.override("vi"):
        assert poll_etag(12, 3) == '"12-3-vi"'
        one, other = poll_etag(12, token="a" * 20), poll_etag(12, token="b" * 20)
    assert one.startswith('"12-vi-') and one != other and "a" * 20 not in one
    with translation.override("en"):
        assert poll_etag(12, 3) == '"12-3-en"'
