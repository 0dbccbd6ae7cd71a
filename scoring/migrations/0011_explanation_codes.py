"""Payment explanations and the ledger's own history notes as a code and its parameters
instead of a Vietnamese sentence.

Each stored sentence is read back one last time, with the phrases the engine and the services
wrote until now (a frozen copy: later changes to their words do not change what this reads).
An explanation it cannot read (cut at 200 characters, say) is kept whole under the code
``text``; a note it does not know is what a person typed, and stays as it is.
"""

import re

from django.db import migrations, models

_SUITS = {"♠": "S", "♣": "C", "♦": "D", "♥": "H"}
_CARD = re.compile(r"(10|[2-9JQKA])([♠♣♦♥])")
_CARDS = re.compile(r"(\d+) lá")
_CONG = re.compile(r"cóng: (\d+) lá ×(\S+)")
_TWO_OUT = re.compile(r"về bằng heo: (\d+) lá")
_HANG = re.compile(r"(?:(\d+) )?(3 đôi thông|tứ quý|4 đôi thông|5 đôi thông)")
_HANG_CODES = {"3 đôi thông": "3dt", "tứ quý": "tq", "4 đôi thông": "4dt", "5 đôi thông": "5dt"}
_PLACE = re.compile(r"(nhất|nhì|ba|bét|cóng) → (nhất|nhì|ba|bét|cóng)")
_RANKS = {"nhất": "first", "nhì": "second", "ba": "third", "bét": "last", "cóng": "cong"}
_PLAYS = {"3 đôi thông": "3dt", "tứ quý": "tq", "4 đôi thông": "4dt"}
_FIXED = {"kết 3♠": "ket_3_bich", "chặn kết 3♠": "chan_ket_3_bich", "cóng cả làng": "cong_ca_lang"}
_HANDS = {
    "sảnh rồng": "sanh_rong",
    "6 đôi thông": "6_doi_thong",
    "4 sám cô": "4_sam",
    "2 tứ quý": "2_tu_quy",
    "12 lá đồng chất": "dong_chat_12",
    "5 đôi thông": "5_doi_thong",
    "tứ quý heo": "tu_quy_heo",
    "6 đôi": "6_doi",
    "3 sám cô thông": "3_sam_thong",
    "4 sám cô thông": "4_sam_thong",
    "3 tứ quý": "3_tu_quy",
    "12 lá đồng màu": "dong_mau_12",
    "sảnh rồng đồng hoa": "thung_pha_sanh",
    "3 đôi thông có 3♠": "3_doi_thong_3bich",
    "tứ quý 3": "tu_quy_3",
    "4 đôi thông có 3♠": "4_doi_thong_3bich",
}
_DEN = "đền thay "
_THOI = " thối"


def _card(label):
    match = _CARD.fullmatch(label)
    return match[1] + _SUITS[match[2]] if match else None


def read(detail):
    """(code, params) of an explanation the engine wrote, or None."""
    if detail in _FIXED:
        return _FIXED[detail], {}
    if detail.startswith(_DEN):
        # "đền thay <name>: <what name owed>": a name may hold ": " itself, so take the first
        # split whose right side is something the engine writes.
        rest = detail[len(_DEN) :]
        start = 0
        while (cut := rest.find(": ", start)) != -1:
            inner = read(rest[cut + 2 :])
            if inner is not None:
                return "den", {"player": rest[:cut], "code": inner[0], "params": inner[1]}
            start = cut + 1
        return None
    for prefix in ("chặt chồng: ", "chặt: "):
        if detail.startswith(prefix):
            steps = [_step(label) for label in detail[len(prefix) :].split(" + ")]
            if None in steps or (len(steps) == 1) != (prefix == "chặt: "):
                return None
            return "chat", {"steps": steps}
    if match := _PLACE.fullmatch(detail):
        return "place", {"from": _RANKS[match[1]], "to": _RANKS[match[2]]}
    return _amounts(detail)


def _step(label):
    if card := _card(label):
        return ["heo", [card]]
    if label.startswith("đôi heo "):
        cards = [_card(c) for c in label[len("đôi heo ") :].split()]
        return ["doi_heo", cards] if cards and None not in cards else None
    return [_PLAYS[label], []] if label in _PLAYS else None


def _amounts(detail):
    """Cards, cóng, tới trắng, each maybe followed by thối; or thối alone."""
    held = {}
    body = detail
    if detail.endswith(_THOI):
        # The thối parts are the last " + "-joined pieces; what comes before them is the rest.
        pieces = detail[: -len(_THOI)].split(" + ")
        parts = []
        while pieces and _thoi_part(pieces[-1]) is not None:
            parts.insert(0, _thoi_part(pieces.pop()))
        if not parts:
            return None
        heo = [value for kind, value in parts if kind == "heo"]
        if heo:
            held["heo"] = heo
        for kind, value in parts:
            if kind != "heo":
                held[kind] = held.get(kind, 0) + value
        body = " + ".join(pieces)
    if not body:
        if not held:
            return None
        code, params = "thoi", {}
    elif match := _CARDS.fullmatch(body):
        code, params = "cards", {"n": int(match[1])}
    elif match := _TWO_OUT.fullmatch(body):
        code, params = "two_out", {"n": int(match[1])}
    elif match := _CONG.fullmatch(body):
        code, params = "cong", {"n": int(match[1]), "x": match[2]}
    elif body.startswith("tới trắng: ") and body[len("tới trắng: ") :] in _HANDS:
        code, params = "toi_trang", {"hand": _HANDS[body[len("tới trắng: ") :]]}
    else:
        return None
    if held:
        params["thoi"] = held
    return code, params


def _thoi_part(part):
    if card := _card(part):
        return "heo", card
    if match := _HANG.fullmatch(part):
        return _HANG_CODES[match[2]], int(match[1] or 1)
    return None


def coded(detail):
    """What a stored explanation becomes: the engine's code, or the sentence kept whole."""
    return read(detail) or ("text", {"text": detail})


#: The notes the services wrote as sentences (their Vietnamese message ids): sentence → code.
NOTES = {
    "Hoàn tác ghi ván": "undo_record",
    "Hoàn tác khôi phục": "undo_restore",
    "Làm lại sau khi hoàn tác": "redo",
    "Ghi nhầm": "settlement_void",
    "Bật liên kết xem": "live_on",
    "Tạo liên kết xem mới": "live_new",
    "Tắt liên kết xem": "live_off",
}
_MERGED = re.compile(r"Gộp (.+) vào (.+?)")  # a name holding " vào " splits at the last one
_MOVED = re.compile(r"Chuyển từ nhóm “(.*)” sang nhóm “(.*)”")


def note_coded(note, action):
    """(note, code, params) of a history note: the ledger's own as a code, a person's as typed."""
    if note in NOTES:
        return "", NOTES[note], {}
    if action == "members" and (match := _MERGED.fullmatch(note)):
        return "", "merged", {"dup": match[1], "keep": match[2]}
    if action == "moved" and (match := _MOVED.fullmatch(note)):
        return "", "moved", {"src": match[1], "dst": match[2]}
    return note, "", {}


def forwards(apps, schema_editor):
    Payment = apps.get_model("scoring", "Payment")
    # One code per distinct sentence: a ledger repeats the same few thousand of them.
    for detail in list(Payment.objects.values_list("detail", flat=True).distinct()):
        code, params = coded(detail)
        Payment.objects.filter(detail=detail).update(detail_code=code, detail_params=params)
    for name in ("HistoryEntry", "GroupHistoryEntry"):
        Entry = apps.get_model("scoring", name)
        notes = Entry.objects.exclude(note="").values_list("note", "action").distinct()
        for note, action in list(notes):
            text, code, params = note_coded(note, action)
            if code:
                Entry.objects.filter(note=note, action=action).update(
                    note=text, note_code=code, note_params=params
                )
    _check_now(schema_editor)


def _check_now(schema_editor):
    """PostgreSQL: run the checks the updates above left for the end of the transaction now,
    so the column changes that follow in it may alter the tables ("pending trigger events")."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def backwards(apps, schema_editor):
    from scoring.engine.words import explain

    Payment = apps.get_model("scoring", "Payment")
    for payment in Payment.objects.only("detail_code", "detail_params").iterator():
        payment.detail = explain(payment.detail_code, payment.detail_params)[:200]
        payment.save(update_fields=["detail"])
    sentences = {code: note for note, code in NOTES.items()}
    sentences["merged"] = "Gộp %(dup)s vào %(keep)s"
    sentences["moved"] = "Chuyển từ nhóm “%(src)s” sang nhóm “%(dst)s”"
    for name in ("HistoryEntry", "GroupHistoryEntry"):
        Entry = apps.get_model("scoring", name)
        for entry in Entry.objects.exclude(note_code="").iterator():
            entry.note = (sentences[entry.note_code] % entry.note_params)[:200]
            entry.save(update_fields=["note"])
    _check_now(schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0010_settlement_submission_token"),
    ]

    operations = [
        migrations.AddField(
            model_name="payment",
            name="detail_code",
            field=models.CharField(default="text", max_length=20, verbose_name="giải thích"),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="payment",
            name="detail_params",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AlterField(
            model_name="payment",
            name="detail",
            field=models.CharField(blank=True, default="", max_length=200),
        ),
        *(
            migrations.AddField(model_name=model, name=name, field=field)
            for model in ("historyentry", "grouphistoryentry")
            for name, field in (
                ("note_code", models.CharField(blank=True, max_length=20)),
                ("note_params", models.JSONField(blank=True, default=dict)),
            )
        ),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField(
            model_name="payment",
            name="detail",
        ),
    ]
