"""Every page and fragment in English carries no Vietnamese but player data and the game
terms the English interface keeps on purpose.

The language cookie is the switch (``tienlen_site.plumbing.middleware``). Vietnamese is told by its
letters: a vowel with a tone mark or hat, or đ. The data is a whole evening
(``tests.richdata``): every kind of game, voids, edits, undo and redo, settlements, the live
link, a merge; every URL of the urlconf is visited, htmx fragments and form errors included.
"""

from __future__ import annotations

import json
import re
import uuid
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scoring import engine
from scoring.models import (
    ArchiveTask,
    Game,
    HistoryEntry,
    Invitation,
    JoinCode,
    Player,
    Settlement,
    Sitting,
    default_group_name,
)
from scoring.text import vietqr
from tests.richdata import TYPED, build

pytestmark = pytest.mark.django_db

VIETNAMESE = re.compile(
    "[àáảãạăằắẳẵặâầấẩẫậèéẻẽẹêềếểễệìíỉĩịòóỏõọôồốổỗộơờớởỡợùúủũụưừứửữựỳýỷỹỵđ]", re.IGNORECASE
)
# Kept in English on purpose: the game's name and the terms English has no word for
# (docs/glossary.md; the English text explains each where it first appears: "instant win
# (tới trắng)", "Card count (đếm lá)"). Longest first, so "cóng cả làng" is taken whole
# before "cóng".
KEPT_TERMS = (
    "Tiến Lên Miền Nam",
    "Tiến Lên",
    "chặn kết 3 bích",
    "Chặn kết 3 bích",
    "kết 3 bích",
    "Kết 3 bích",
    "cóng cả làng",
    "tới trắng",
    "đếm lá",
    "thối",
    "cóng",
    "đền",
    "phần",  # the unit of nhất nhì ba bét: not a "share"
    "(tới)",  # "Who went out first (tới)?"
)
# URLs this test does not render, and why.
NOT_RENDERED = {
    "set_language": "the switch itself: a POST answered by a redirect (visited below)",
    "logout": "a POST answered by a redirect",
    "admin:logout": "a POST answered by a redirect",
    "admin:jsi18n": "a JavaScript catalog (data)",
    "admin:autocomplete": "JSON for the admin's search boxes (data)",
    "admin:view_on_site": "a redirect to the object's own page",
    "admin:axes_accessfailurelog_change": "axes logs no row here (its list is visited)",
    "admin:axes_accessfailurelog_delete": "axes logs no row here (its list is visited)",
    "admin:axes_accessfailurelog_history": "axes logs no row here (its list is visited)",
    # The tests run tasks in the request (the immediate backend): django-tasks-db's queue
    # holds no row for these pages (its list is visited).
    "admin:django_tasks_database_dbtaskresult_change": "no queued task here",
    "admin:django_tasks_database_dbtaskresult_delete": "no queued task here",
    "admin:django_tasks_database_dbtaskresult_history": "no queued task here",
}
HX = {"HX-Request": "true"}
# Attributes a person reads or hears.
READ_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "data-copied", "hx-confirm"}
# What a script shows or announces from the page's own words (the save and pay banners).
READ_ATTRIBUTES |= {
    "data-changed", "data-first", "data-game", "data-gone", "data-load-failed", "data-offline",
    "data-payment-changed", "data-payment-gone", "data-pending", "data-refused", "data-select",
    "data-sending", "data-server", "data-summary", "data-time",
}  # fmt: skip
VOID_TAGS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}


class _Text(HTMLParser):
    """The text a reader sees or hears, without scripts, styles and parts marked lang="vi"
    (the switch back to Vietnamese is written in Vietnamese on purpose)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []  # whether each open element is skipped
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        skipped = (
            bool(self.stack and self.stack[-1])
            or tag in {"script", "style"}
            or (values.get("lang") or "").startswith("vi")
        )
        if not skipped:
            self.parts.extend(v for k, v in attrs if k in READ_ATTRIBUTES and v)
            if tag in {"input", "button"} and values.get("type") in {"submit", "button"}:
                self.parts.append(values.get("value") or "")
        if tag not in VOID_TAGS:
            self.stack.append(skipped)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID_TAGS:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag not in VOID_TAGS and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if not (self.stack and self.stack[-1]) and data.strip():
            self.parts.append(data)


def vietnamese_in(html: str, data: list[str]) -> list[str]:
    """Each piece of Vietnamese left once player data and the kept terms are taken out."""
    parser = _Text()
    parser.feed(html)
    found = []
    for part in parser.parts:
        text = part
        for value in sorted(data, key=len, reverse=True):
            text = text.replace(value, "")
        for term in KEPT_TERMS:
            text = re.sub(re.escape(term), "", text, flags=re.IGNORECASE)
        if VIETNAMESE.search(text):
            found.append(" ".join(part.split())[:160])
    return found


# English text that is not Vietnamese but is still a leftover: a price or a date written with
# a slash (halves are ½ 1½ 2½, dates 2 Dec 2026), or Django's own "Dec. 2" style.
LEFTOVERS = (
    (re.compile(r"(?<![\w/.])\d+/\d+(?:/\d+)?(?![\w/])"), "a slash number (a price or a date)"),
    (re.compile(r"\b(?:Jan|Feb|Aug|Sept|Oct|Nov|Dec)\. \d"), "Django's default date style"),
)


def leftovers_in(html: str, data: list[str]) -> list[str]:
    """Each piece of English text still written the Vietnamese way (see ``LEFTOVERS``)."""
    parser = _Text()
    parser.feed(html)
    found = []
    for part in parser.parts:
        text = part
        for value in sorted(data, key=len, reverse=True):
            text = text.replace(value, "")
        if re.fullmatch(r"\s*\d+/\d+\s*", text):
            continue  # a pager's "page 1/2", alone in its element: the same in any language
        for pattern, why in LEFTOVERS:
            if pattern.search(text):
                found.append(f"{why}: {' '.join(part.split())[:120]}")
    return found


def _names(resolver=None, namespace=""):
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _names(entry, inner)
        elif isinstance(entry, URLPattern) and entry.name:
            yield namespace + entry.name


@pytest.fixture
def evening(owner, stranger):
    ids = build(owner, stranger)
    owner.is_staff = owner.is_superuser = True
    owner.save()
    Group.objects.create(name="thu ngan")
    return ids


def _english(client: Client) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def _visits(ids, owner_client, anonymous, owner_pk):
    """(url name, label, response) for every page, fragment and form answer."""
    s, p = ids["sitting"], ids["placement"]
    g = ids["games"]
    an, binh = ids["players"]["An"], ids["players"]["Bình"]
    sitting = Sitting.objects.get(pk=s)
    get, post = owner_client.get, owner_client.post

    def record_post(**extra):
        data = {
            "token": str(uuid.uuid4()),
            "played": ["An", "Bình", "Chi", "Dũng"],
            "winner": "An",
            "cards_1": "5",
            "cards_2": "13",
            "cards_3": "3",
            "heo_1": ["2H"],
            "chains": "1",
            "chat_0_steps": "2",
            "chat_0_0_player": "Bình",
            "chat_0_0_play": "heo",
            "chat_0_1_player": "Chi",
            "chat_0_1_play": "",
            "action": "preview",
        }
        data.update(extra)
        return data

    yield "home", "home", get("/")
    yield "home", "welcome (signed out)", anonymous.get("/")
    yield "healthz", "health", get("/healthz")
    yield "manifest", "app manifest", anonymous.get("/manifest.webmanifest")
    yield "service_worker", "service worker", anonymous.get("/sw.js")
    yield "signup", "sign-up", anonymous.get("/accounts/signup/")
    yield (
        "signup",
        "sign-up refused",
        anonymous.post("/accounts/signup/", {"username": "x", "password1": "a", "password2": "b"}),
    )
    yield "account", "account", get("/accounts/")
    yield "login", "log-in", anonymous.get("/accounts/login/")
    yield (
        "login",
        "log-in refused",
        anonymous.post("/accounts/login/", {"username": "x", "password": "y"}),
    )
    yield "password_change", "password change", get("/accounts/password_change/")
    yield "password_change_done", "password changed", get("/accounts/password_change/done/")
    yield "password_reset", "password reset", anonymous.get("/accounts/password_reset/")
    yield "password_reset_done", "reset sent", anonymous.get("/accounts/password_reset/done/")
    yield (
        "password_reset_confirm",
        "reset link",
        anonymous.get("/accounts/reset/MQ/set-password/", follow=True),
    )
    yield "password_reset_complete", "reset done", anonymous.get("/accounts/reset/done/")
    yield "rules", "rule sets", get("/rules/")
    yield "rules_new", "new rule set", get("/rules/new/?from=dem-la-26")
    yield "rules_edit", "rule set", get(f"/rules/{ids['rule_set']}/")
    yield "rules_edit", "rule set refused", post(f"/rules/{ids['rule_set']}/", {"name": ""})
    yield "sitting_new", "new sitting", get("/s/new/")
    yield "sitting_new", "new sitting refused", post("/s/new/", {"name": "", "stake": "-1"})
    token = str(uuid.uuid4())
    base = {
        "name": "Thu",
        "date": "2026-11-30",
        "rules": "preset:cuoc",
        "stake": "10000",
        "players": "An\nBình",
        "token": token,
    }
    yield "sitting_new", "sitting opened", post("/s/new/", base, follow=True)
    yield "sitting_new", "sitting opened again", post("/s/new/", base, follow=True)
    yield "sitting_new", "token conflict", post("/s/new/", {**base, "stake": "20000"})
    yield "sitting", "sitting", get(f"/s/{s}/")
    yield "sitting", "sitting (placement)", get(f"/s/{p}/")
    yield "sitting", "games fragment", get(f"/s/{s}/?part=games&page=2", headers=HX)
    yield "sitting", "chart fragment", get(f"/s/{s}/?part=chart", headers=HX)
    yield "sitting", "board poll", get(f"/s/{s}/?part=board", headers=HX)
    yield "sitting", "undone banner", get(f"/s/{s}/?undone={ids['undo_entry']}")
    yield "game_new", "preview", post(f"/s/{s}/games/", record_post(), headers=HX)
    yield (
        "game_new",
        "preview (placement, cóng, tới trắng)",
        post(
            f"/s/{p}/games/",
            {
                "played": ["An", "Bình", "Chi", "Giang"],
                "toi_trang_player": "Giang",
                "toi_trang_hand": "6_doi",
                "action": "preview",
            },
            headers=HX,
        ),
    )
    yield (
        "game_new",
        "preview with problems",
        post(f"/s/{s}/games/", record_post(cards_1="", winner=""), headers=HX),
    )
    yield (
        "game_new",
        "failed save (page)",
        post(f"/s/{s}/games/", record_post(winner="", action="save")),
    )
    yield (
        "game_new",
        "failed save (fragment)",
        post(f"/s/{s}/games/", record_post(winner="", action="save"), headers=HX),
    )
    save = record_post(action="save", chains="0", cards_2="4")
    yield "game_new", "saved", post(f"/s/{s}/games/", save, headers=HX)
    yield (
        "game_new",
        "save conflict",
        post(f"/s/{s}/games/", {**save, "cards_1": "7"}, headers=HX),
    )
    yield "game", "game (chặt)", get(f"/s/{s}/g/{g['chat']}/")
    yield "game", "game (cóng, đền)", get(f"/s/{s}/g/{g['cong_den']}/")
    yield "game", "game (tới trắng)", get(f"/s/{s}/g/{g['toi_trang']}/")
    yield "game", "game (kết 3 bích)", get(f"/s/{s}/g/{g['ket']}/")
    yield "game", "game (thối)", get(f"/s/{s}/g/{g['thoi']}/")
    yield "game", "game (void)", get(f"/s/{s}/g/{g['void']}/")
    yield "game", "game (edited)", get(f"/s/{s}/g/{g['edited']}/")
    yield "game", "game (redone)", get(f"/s/{s}/g/{g['redone']}/")
    yield "game", "game (undone)", get(f"/s/{s}/g/{g['undone']}/")
    yield "game", "game (placement)", get(f"/s/{p}/g/1/")
    edit = f"/s/{s}/g/{g['chat']}/edit/"
    yield "game_edit", "edit (chặt)", get(edit)
    yield "game_edit", "edit (cóng, đền)", get(f"/s/{s}/g/{g['cong_den']}/edit/")
    yield "game_edit", "edit (tới trắng)", get(f"/s/{s}/g/{g['toi_trang']}/edit/")
    yield "game_edit", "edit (placement)", get(f"/s/{p}/g/2/edit/")
    stale = {
        "played": ["An", "Bình", "Chi", "Dũng"],
        "winner": "Chi",
        "cards_0": "2",
        "cards_1": "4",
        "cards_3": "6",
        "revision": "0",
        "action": "save",
    }
    yield "game_edit", "edit preview", post(edit, {**stale, "action": "preview"}, headers=HX)
    yield "game_edit", "edit conflict", post(edit, stale)
    yield "game_void", "void", post(f"/s/{s}/g/{g['thoi']}/void/", {"reason": "x"}, follow=True)
    yield "game_void", "void refused", post(f"/s/{s}/g/{g['thoi']}/void/", {}, follow=True)
    yield "game_restore", "restore", post(f"/s/{s}/g/{g['thoi']}/restore/", follow=True)
    yield "sitting_undo", "undo", post(f"/s/{s}/undo/", follow=True)
    entry = re.search(r'name="entry" value="(\d+)"', get(f"/s/{s}/?undone=0").text or "")
    undo_page = post(f"/s/{s}/undo/", follow=True)
    yield "sitting_undo", "undo again", undo_page
    entry = re.search(r'name="entry" value="(\d+)"', undo_page.text)
    yield "sitting_redo", "redo", post(f"/s/{s}/redo/", {"entry": entry[1]}, follow=True)
    yield "sitting_redo", "redo refused", post(f"/s/{s}/redo/", {"entry": entry[1]}, follow=True)
    yield "sitting_members", "members", get(f"/s/{s}/members/")
    yield "sitting_members", "members refused", post(f"/s/{s}/members/", {"players": "An"})
    yield "sitting_share", "share", get(f"/s/{s}/share/")
    yield "sitting_share", "share refused", post(f"/s/{s}/share/", {"username": "ai_do"})
    # An invitation from both sides: sent, declined, sent again and accepted, withdrawn, the
    # co-scorekeeper removed, and another one leaving.
    guest = get_user_model().objects.create_user("khach", password="mat-khau-dai-123")
    guest_client = _english(Client())
    guest_client.force_login(guest)
    yield "sitting_share", "invited", post(f"/s/{s}/share/", {"username": "khach"}, follow=True)
    invitation = Invitation.objects.filter(username="khach").latest("pk")
    yield "home", "home with an invitation", guest_client.get("/")
    yield "invitation", "invitation", guest_client.get(f"/invitations/{invitation.pk}/")
    declined = guest_client.post(f"/invitations/{invitation.pk}/decline/", follow=True)
    yield "invitation_decline", "invitation declined", declined
    post(f"/s/{s}/share/", {"username": "khach"})
    invitation = Invitation.objects.filter(username="khach").latest("pk")
    accepted = guest_client.post(f"/invitations/{invitation.pk}/accept/", follow=True)
    yield "invitation_accept", "invitation accepted", accepted
    post(f"/s/{s}/share/", {"username": "ai_khac"})
    unknown = Invitation.objects.filter(username="ai_khac").latest("pk")
    withdrawn = post(f"/s/{s}/share/withdraw/{unknown.pk}/", follow=True)
    yield "invitation_withdraw", "invitation withdrawn", withdrawn
    removed = post(f"/s/{s}/share/remove/{guest.pk}/", follow=True)
    yield "scorekeeper_remove", "scorekeeper removed", removed
    partner = _english(Client())
    partner.force_login(get_user_model().objects.get(username="nguoi_la"))
    yield "sitting_leave", "leave", partner.get(f"/s/{s}/leave/")
    yield "sitting_leave", "left", partner.post(f"/s/{s}/leave/", follow=True)
    yield "rules_book", "rules book", anonymous.get("/rules/book/")
    yield "rules_book", "rules book (signed in)", get("/rules/book/")
    yield "sitting_history", "history", get(f"/s/{s}/history/")
    yield "sitting_history", "history (placement)", get(f"/s/{p}/history/")
    yield "sitting_check", "check the book", get(f"/s/{s}/check/")
    yield "sitting_check", "check the book (run)", post(f"/s/{s}/check/")
    yield "sitting_settle", "settle", get(f"/s/{s}/settle/")
    yield "sitting_settle", "settle fragment", get(f"/s/{s}/settle/?method=played", headers=HX)
    yield "sitting_settle", "settle via banker", get(f"/s/{s}/settle/?method=banker&banker={an}")
    version = Sitting.objects.get(pk=s).version
    pay = {"payer": binh, "payee": an, "amount": "5000", "version": version}
    yield "settlement_new", "settle refused", post(f"/s/{s}/settlements/", {"payer": an})
    yield "settlement_new", "settled", post(f"/s/{s}/settlements/", pay, headers=HX)
    yield (
        "settlement_new",
        "settle conflict",
        post(f"/s/{s}/settlements/", {**pay, "kind": "suggestion"}, headers=HX),
    )
    yield (
        "settlement_void",
        "settlement void",
        post(f"/s/{s}/settlements/{ids['settlement']}/void/", {"reason": ""}, follow=True),
    )
    # "Đã nhận": the payment just recorded (Bình → An), on home, confirmed, and from An's link.
    paid = Settlement.objects.filter(sitting_id=s, is_void=False).latest("pk")
    yield "home", "home with a payment waiting", get("/")
    yield (
        "settlement_receipt",
        "received",
        post(f"/settlements/{paid.pk}/received/", {"action": "confirm"}, follow=True),
    )
    yield "player_link_settings", "player link", get(f"/players/{an}/link/")
    yield (
        "player_link_settings",
        "player link on",
        post(f"/players/{an}/link/", {"action": "enable"}, follow=True),
    )
    link = f"/p/{Player.objects.get(pk=an).link_token}/"
    yield "player_link", "player page", anonymous.get(link)
    yield (
        "player_receipt",
        "player page, received taken back",
        anonymous.post(f"{link}received/{paid.pk}/", {"action": "undo"}, follow=True),
    )
    yield "player_statement_in_sitting", "statement", get(f"/s/{s}/players/{an}/")
    yield (
        "player_statement_in_sitting",
        "statement fragment",
        get(f"/s/{s}/players/{binh}/", headers=HX),
    )
    yield "pair_explain", "pair", get(f"/s/{s}/pair/{an}/{binh}/")
    yield "pair_explain", "pair fragment", get(f"/s/{s}/pair/{binh}/{an}/", headers=HX)
    yield "sitting_export_csv", "payments csv", get(f"/s/{s}/export/payments.csv")
    yield "sitting_export_totals_csv", "totals csv", get(f"/s/{s}/export/totals.csv")
    exported = get(f"/s/{s}/export/session.json")
    yield "sitting_export_json", "session json", exported
    yield "sitting_print", "print", get(f"/s/{s}/print/")
    yield "session_import", "import", get("/import/")
    yield "session_import", "import refused", post("/import/", {})
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("evening.json", exported.content, "application/json")
    yield "session_import", "imported", post("/import/", {"file": upload}, follow=True)
    yield "player_ledger", "ledger", get(f"/ledger/{an}/")
    yield "players", "players", get("/players/")
    yield "player", "player", get(f"/players/{an}/")
    yield "player", "player fragment", get(f"/players/{binh}/", headers=HX)
    yield "player_merge", "merge", get(f"/players/{binh}/merge/")
    yield "player_merge", "merge fragment", get(f"/players/{binh}/merge/", headers=HX)
    yield "player_merge", "merge refused", post(f"/players/{binh}/merge/", {})
    yield "player_bank", "bank", get(f"/players/{an}/bank/")
    yield "player_bank", "bank fragment", get(f"/players/{an}/bank/", headers=HX)
    yield "player_bank", "bank refused", post(f"/players/{an}/bank/", {"account": "xx"})
    yield "sitting_join", "join settings", get(f"/s/{s}/join/")
    yield "sitting_join", "join on", post(f"/s/{s}/join/", {"action": "enable"}, follow=True)
    code = JoinCode.objects.filter(sitting_id=s, revoked_at=None).latest("pk").token
    yield "join", "join page", anonymous.get(f"/j/{code}/")
    yield "join", "join refused", anonymous.post(f"/j/{code}/", {"player": "x"})
    phone = _english(Client())
    yield "join", "join claimed", phone.post(f"/j/{code}/", {"player": str(binh)}, follow=True)
    yield "join", "join taken", anonymous.post(f"/j/{code}/", {"player": str(binh)})
    yield "sitting_join", "joined", get(f"/s/{s}/join/?part=joined", headers=HX)
    yield (
        "sitting_join_reset",
        "join reset",
        post(f"/s/{s}/join/{binh}/reset/", follow=True),
    )
    yield "sitting_join", "join off", post(f"/s/{s}/join/", {"action": "revoke"}, follow=True)
    yield "sitting_live", "live settings", get(f"/s/{s}/live/")
    yield (
        "sitting_live",
        "live regenerated",
        post(f"/s/{s}/live/", {"action": "regenerate"}, follow=True),
    )
    sitting.refresh_from_db()
    yield "live", "live page", anonymous.get(f"/live/{sitting.live_token}/")
    yield "live", "live poll", anonymous.get(f"/live/{sitting.live_token}/", headers=HX)
    yield "live_book", "live witness", anonymous.get(f"/live/{sitting.live_token}/book/")
    yield "sitting_live", "live revoked", post(f"/s/{s}/live/", {"action": "revoke"}, follow=True)
    yield from _group_visits(ids, owner_client, anonymous)
    yield "admin:index", "admin", get("/admin/")
    yield "admin:app_list", "admin app", get("/admin/scoring/")
    yield "admin:login", "admin log-in", anonymous.get("/admin/login/")
    yield "admin:password_change", "admin password", get("/admin/password_change/")
    yield "admin:password_change_done", "admin password done", get("/admin/password_change/done/")
    yield (
        "admin:auth_user_password_change",
        "admin user password",
        get(reverse("admin:auth_user_password_change", args=[owner_pk])),
    )
    for model in admin.site._registry:
        meta = model._meta
        name = f"admin:{meta.app_label}_{meta.model_name}_changelist"
        yield name, name, get(reverse(name))
    for model in admin.site._registry:
        meta = model._meta
        first = model._default_manager.order_by("pk").first()
        for action in ("add", "change", "delete", "history"):
            name = f"admin:{meta.app_label}_{meta.model_name}_{action}"
            if action == "add":
                yield name, name, get(reverse(name))
            elif first is not None:
                yield name, name, get(reverse(name, args=[first.pk]))


def _group_visits(ids, owner_client, anonymous):
    """Every group page: the evening's own group, its settle-up, statements, close and undo,
    sharing from both sides, the live link, a new group, moving a sitting, merging names."""
    from scoring.models import Group, PeriodClose, Player
    from scoring.models import Settlement as SettlementRow

    get, post = owner_client.get, owner_client.post
    s = ids["sitting"]
    group = Sitting.objects.get(pk=s).group
    g = f"/groups/{group.pk}"
    an = ids["players"]["An"]
    yield "groups", "groups", get("/groups/")
    yield "groups", "group refused", post("/groups/", {"name": ""})
    yield "groups", "group made", post("/groups/", {"name": "Chủ nhật"}, follow=True)
    other = Group.objects.get(name="Chủ nhật")
    yield "group", "group", get(f"{g}/")
    yield "group", "empty group", get(f"/groups/{other.pk}/")
    yield "group", "group this week", get(f"{g}/?period=week")
    yield "group", "group fragment", get(f"{g}/?period=month", headers=HX)
    yield "group", "group custom", get(f"{g}/?period=custom&start=2026-12-01&end=2026-11-01")
    yield "group_settle", "group settle", get(f"{g}/settle/")
    yield "group_settle", "group settle played", get(f"{g}/settle/?method=played", headers=HX)
    yield "group_settle", "group settle banker", get(f"{g}/settle/?method=banker&banker={an}")
    yield "group_settle", "empty group settle", get(f"/groups/{other.pk}/settle/")
    yield "group_why", "group why", get(f"{g}/why/{ids['players']['Bình']}/{ids['players']['An']}/")
    yield (
        "group_why",
        "group why fragment",
        get(f"{g}/why/{ids['players']['An']}/{ids['players']['Bình']}/", headers=HX),
    )
    why_games = f"{g}/why/{ids['players']['Bình']}/{ids['players']['An']}/s/{s}/"
    yield "group_why_games", "group why games", get(why_games)
    yield "group_why_games", "group why games fragment", get(why_games, headers=HX)
    from scoring.ledger.standing import ledger_version

    version = ledger_version(group)
    binh = ids["players"]["Bình"]
    pay = {"payer": binh, "payee": an, "amount": "5000", "version": version}
    yield "group_settlement_new", "group settle refused", post(f"{g}/settlements/", {"payer": an})
    yield "group_settlement_new", "group settled", post(f"{g}/settlements/", pay, headers=HX)
    yield (
        "group_settlement_new",
        "group settle conflict",
        post(f"{g}/settlements/", {**pay, "kind": "suggestion"}, headers=HX),
    )
    paid = SettlementRow.objects.filter(group=group).latest("pk")
    yield (
        "group_settlement_void",
        "group settlement void",
        post(f"{g}/settlements/{paid.pk}/void/", {"reason": ""}, follow=True),
    )
    yield "group_statement", "group statement", get(f"{g}/players/{an}/?period=all")
    yield "group_statement", "group statement (open)", get(f"{g}/players/{binh}/")
    games = f"{g}/players/{an}/sittings/{s}/games/"
    yield "group_statement_games", "a sitting's games", get(games)
    yield "group_statement_games", "a sitting's games fragment", get(games, headers=HX)
    yield "group_statement_csv", "group statement csv", get(f"{g}/players/{an}/statement.csv")
    yield "group_statement_json", "group statement json", get(f"{g}/players/{an}/statement.json")
    yield "group_close", "close", get(f"{g}/close/?closes_through=2026-11-28")
    yield "group_close", "close refused", post(f"{g}/close/", {})
    closed = post(f"{g}/close/", {"closes_through": "2026-11-28"}, follow=True)
    yield "group_close", "closed", closed
    yield "group_statement", "group statement (carried)", get(f"{g}/players/{an}/")
    close = PeriodClose.objects.get(group=group, undone_at=None)
    yield "group_reopen", "reopened", post(f"{g}/close/{close.pk}/undo/", follow=True)
    yield "group_sitting_new", "group new sitting", get(f"{g}/sittings/new/")
    yield (
        "group_sitting_new",
        "group new sitting refused",
        post(f"{g}/sittings/new/", {"name": "", "stake": "-1"}),
    )
    opened = post(
        f"{g}/sittings/new/",
        {
            "name": "Thêm",
            "date": "2026-11-30",
            "rules": "preset:cuoc",
            "stake": "10000",
            "players": "An\nBình",
            "token": str(uuid.uuid4()),
        },
        follow=True,
    )
    yield "group_sitting_new", "group sitting opened", opened
    extra = Sitting.objects.get(name="Thêm")
    yield "sitting_move", "move", get(f"{g}/sittings/{extra.pk}/move/")
    yield (
        "sitting_move",
        "moved",
        post(f"{g}/sittings/{extra.pk}/move/", {"target": other.pk}, follow=True),
    )
    yield (
        "sitting_move",
        "move (no other group)",
        get(f"/groups/{other.pk}/sittings/{extra.pk}/move/"),
    )
    yield "group_merge", "group merge", get(f"{g}/merge/")
    yield "group_merge", "group merge refused", post(f"{g}/merge/", {"keep": an, "duplicate": an})
    # A look-alike kept from before the look-alike check (no skeleton, as migration 0015 left
    # such players), to merge into Bình.
    Player.objects.bulk_create([Player(owner=group.owner, group=group, name="Binh")])
    dup = Player.objects.get(group=group, name="Binh")
    merged = post(f"{g}/merge/", {"keep": binh, "duplicate": dup.pk, "confirm": "on"}, follow=True)
    yield "group_merge", "group merged", merged
    yield "group_share", "group share", get(f"{g}/share/")
    yield "group_share", "group share refused", post(f"{g}/share/", {"username": ""})
    friend = get_user_model().objects.create_user("ban_nhom", password="mat-khau-dai-123")
    friend_client = _english(Client())
    friend_client.force_login(friend)
    yield "group_share", "group invited", post(f"{g}/share/", {"username": "ban_nhom"}, follow=True)
    invitation = Invitation.objects.filter(username="ban_nhom").latest("pk")
    yield "home", "home with a group invitation", friend_client.get("/")
    yield "groups", "groups with an invitation", friend_client.get("/groups/")
    yield "invitation", "group invitation", friend_client.get(f"/invitations/{invitation.pk}/")
    yield (
        "invitation_decline",
        "group invitation declined",
        friend_client.post(f"/invitations/{invitation.pk}/decline/", follow=True),
    )
    post(f"{g}/share/", {"username": "ban_nhom"})
    invitation = Invitation.objects.filter(username="ban_nhom").latest("pk")
    yield (
        "invitation_accept",
        "group invitation accepted",
        friend_client.post(f"/invitations/{invitation.pk}/accept/", follow=True),
    )
    yield "group", "group (as a scorekeeper)", friend_client.get(f"{g}/")
    yield "group_leave", "group leave", friend_client.get(f"{g}/leave/")
    yield "group_leave", "group leave (owner)", get(f"{g}/leave/")
    post(f"{g}/share/", {"username": "ai_khac_nua"})
    pending = Invitation.objects.filter(username="ai_khac_nua").latest("pk")
    yield (
        "group_invitation_withdraw",
        "group invitation withdrawn",
        post(f"{g}/share/withdraw/{pending.pk}/", follow=True),
    )
    yield (
        "group_keeper_remove",
        "group scorekeeper removed",
        post(f"{g}/share/remove/{friend.pk}/", follow=True),
    )
    post(f"{g}/share/", {"username": "ban_nhom"})
    invitation = Invitation.objects.filter(username="ban_nhom").latest("pk")
    friend_client.post(f"/invitations/{invitation.pk}/accept/")
    yield "group_leave", "group left", friend_client.post(f"{g}/leave/", follow=True)
    yield "group_rename", "group rename", get(f"{g}/rename/")
    yield "group_rename", "group rename refused", post(f"{g}/rename/", {"name": "Chủ nhật"})
    yield "group_history", "group history", get(f"{g}/history/")
    yield "group_check", "group check the book", get(f"{g}/check/")
    yield "group_check", "group check the book (run)", post(f"{g}/check/", {"full": "1"})
    archived = get(f"{g}/archive/")
    yield "group_archive", "group archive", archived
    yield "group_import", "group import", get("/groups/import/")
    yield "group_import", "group import refused", post("/groups/import/", {})
    from django.core.files.uploadedfile import SimpleUploadedFile

    # Imported by someone whose pages are not visited afterwards: the new group keeps the
    # stored name of a default group ("Nhóm của …"), which only the owner's default is shown
    # translated.
    mover = get_user_model().objects.create_user("chuyen_nha", password="mat-khau-dai-123")
    mover_client = _english(Client())
    mover_client.force_login(mover)
    upload = SimpleUploadedFile("nhom.json.gz", archived.content, "application/gzip")
    imported = mover_client.post("/groups/import/", {"file": upload})
    assert imported.status_code == 302, imported.content.decode()[:2000]
    yield "group_import", "group imported", imported
    task = ArchiveTask.objects.filter(owner=mover).latest("pk").get_absolute_url()
    yield "archive_task", "archive task", mover_client.get(task)
    yield "archive_task", "archive task fragment", mover_client.get(task, HTTP_HX_REQUEST="true")
    an = ids["players"]["An"]
    yield "group_stats", "group stats", get(f"{g}/stats/")
    yield "group_stats", "group stats by wins", get(f"{g}/stats/?sort=wins&period=all")
    yield "group_stats_games", "group stats wins", get(f"{g}/stats/{an}/wins/")
    yield "group_stats_games", "group stats cong", get(f"{g}/stats/{an}/cong/?period=all")
    yield "group_player_year", "player's year", get(f"{g}/players/{an}/year/")
    yield "group_what_if", "what if", get(f"{g}/what-if/")
    yield "group_what_if", "what if priced", get(f"{g}/what-if/?rules=cuoc&stake=1000&period=all")
    yield "group_what_if", "what if refused", get(f"{g}/what-if/?rules=cuoc&stake=abc")
    yield "group_live_settings", "group live settings", get(f"{g}/live/")
    yield (
        "group_live_settings",
        "group live on",
        post(f"{g}/live/", {"action": "enable"}, follow=True),
    )
    yield (
        "group_live_leaderboard",
        "group live leaderboard on",
        post(f"{g}/live/leaderboard/", {"show": "1"}, follow=True),
    )
    group.refresh_from_db()
    yield "group_live", "group live page", anonymous.get(f"/gl/{group.live_token}/")
    yield (
        "group_live_settings",
        "group live off",
        post(f"{g}/live/", {"action": "revoke"}, follow=True),
    )


DATA_FILES = {"sitting_export_csv", "sitting_export_totals_csv", "sitting_export_json", "healthz"}
DATA_FILES |= {"group_statement_csv", "group_statement_json", "live_book", "service_worker"}
DATA_FILES |= {"group_archive"}


@pytest.mark.long
def test_every_page_and_fragment_reads_in_english(evening, owner, client):
    owner_client = Client()
    owner_client.force_login(owner)
    _english(owner_client)
    anonymous = _english(Client())
    # Player data, what people typed, and banks' official names (proper names, in the bank list).
    banks = [bank.name for bank in vietqr.BANKS]
    data = [*evening["names"], *TYPED, owner.get_username(), "nguoi_la", "Thu", *banks]
    # Group names: one typed here, and the default group's, stored as the ledger names it.
    data += ["Chủ nhật", "Thêm", default_group_name(owner.get_username())]
    problems = {}
    visited = set()

    def stored():
        # The admin is a window on the database: its cells show values as stored (rule names,
        # notes); its own words are checked, payment explanations among them.
        return [
            *Sitting.objects.values_list("rules_label", flat=True).distinct(),
            *HistoryEntry.objects.values_list("note", flat=True).distinct(),
            *Game.objects.values_list("void_reason", flat=True).distinct(),
            *(f'"{rules.unit}"' for rules in engine.PRESETS.values()),
            # Django writes permission names once, at migrate time, from the source language.
            *Permission.objects.values_list("name", flat=True),
        ]

    for name, label, response in _visits(evening, owner_client, anonymous, owner.pk):
        visited.add(name)
        assert response.status_code < 500, (label, response.status_code)
        assert response.get("Content-Language", "en") == "en", label
        if name == "manifest":  # what a phone shows under the icon and in its app list
            shown = json.loads(response.content)
            assert shown["lang"] == "en" and not vietnamese_in(
                f"<p>{shown['description']}</p>", KEPT_TERMS
            ), shown
            continue
        if name in DATA_FILES:
            continue  # data files: fixed column names, the ledger's stored wording
        if name == "rules_book":
            # The rules book's English half teaches the Vietnamese game terms (its glossary and
            # examples use them on purpose): what counts is that the English half is shown.
            html = response.content.decode()
            assert "Game terms" in html, label
            assert "Thuật ngữ" not in html, label
            continue
        html = response.content.decode()
        known = data + (stored() if name.startswith("admin:") else [])
        found = vietnamese_in(html, known)
        if not name.startswith("admin:"):
            found += leftovers_in(html, known)
        if found:
            problems[label] = found
    assert not problems, json.dumps(problems, ensure_ascii=False, indent=1)
    missing = set(_names()) - visited - set(NOT_RENDERED)
    assert not missing, f"URLs this test does not visit yet: {sorted(missing)}"


def test_the_finder_catches_vietnamese_and_spares_names_and_kept_terms():
    html = (
        '<p title="Xoá">Bình trả 5 lá</p><p>cóng: 13 cards, thối (2♥)</p>'
        '<button lang="vi" title="Chuyển sang tiếng Việt">VI</button><script>"đ"</script>'
    )
    assert vietnamese_in(html, ["Bình"]) == ["Xoá", "Bình trả 5 lá"]
    assert vietnamese_in("<p>Bình · cóng cả làng · tới trắng</p>", ["Bình"]) == []


def test_the_leftover_finder_catches_slash_prices_and_dates():
    html = (
        "<p>Thối: 2♠ 1/2 · 3/2 · 5/2</p><p>12/02/2026</p><p>Dec. 2, 2026</p>"
        "<p>2♠ ½ · 1½ · 2½ · 2 Dec 2026 · 245.000 ₫ · 3 · −1</p><span>1/2</span>"
    )
    found = leftovers_in(html, [])
    assert [line.split(":")[0] for line in found] == [
        "a slash number (a price or a date)",
        "a slash number (a price or a date)",
        "Django's default date style",
    ]


def test_the_language_cookie_is_what_switches(client, owner):
    client.force_login(owner)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert client.post("/i18n/setlang/", {"language": "vi", "next": "/"}).status_code == 302
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "vi"
