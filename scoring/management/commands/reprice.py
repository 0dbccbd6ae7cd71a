"""``manage.py reprice --sitting ID --rules RULES [--stake N]``: what a sitting would have
cost under another rule set, nothing written.

Prints ``{"totals": {name: đồng}, "games": n, "skipped": [{"game": n, "reason": …}],
"noted": [{"game": n, "note": …}]}``:
every counted game of the sitting priced again by the engine from its stored record
(``scoring.ledger.reprice``). ``RULES`` is a preset id, ``saved:ID`` (a saved rule set of the
sitting's owner) or the path of a rule-set JSON file; the stake defaults to the sitting's. A
game the rule set cannot price is skipped and named with the engine's reason (``--lang``); a
game priced with a fact the rule set ignores set aside is listed in ``noted``.
Bad input: a message on stderr, a non-zero exit.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring import engine
from scoring.ledger.reprice import reprice_sitting
from scoring.models import SavedRuleSet, Sitting
from scoring.text.numbers import command_int


class Command(BaseCommand):
    help = "Price a sitting's games again under another rule set and stake (nothing written)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sitting", required=True, help="the sitting's id")
        parser.add_argument(
            "--rules",
            required=True,
            help=f"a preset id ({', '.join(engine.PRESETS)}), saved:ID, or a rule-set JSON file",
        )
        parser.add_argument("--stake", help="đồng per unit (default: the sitting's stake)")
        parser.add_argument("--lang", choices=("vi", "en"), default="en")

    def handle(self, *args: Any, **options: Any) -> None:
        pk = command_int(options["sitting"], f"--sitting: {options['sitting']!r} is not an id")
        sitting = Sitting.objects.filter(pk=pk).first()
        if sitting is None:
            raise CommandError(f"--sitting: no sitting with id {options['sitting']}")
        rules = self._rules(options["rules"], sitting, options["lang"])
        stake = sitting.stake
        if options["stake"] is not None:
            stake = command_int(options["stake"], f"--stake: {options['stake']!r} is not a number")
        problems = engine.check_stake(rules, stake)
        if problems:
            raise CommandError(f"--stake: {problems[0].message(options['lang'])}")
        result = reprice_sitting(sitting, rules, stake, lang=options["lang"])
        data = {
            "totals": result.totals_by_name(),
            "games": result.games,
            "skipped": [{"game": s.number, "reason": s.reason} for s in result.skipped],
            "noted": [{"game": s.number, "note": s.reason} for s in result.noted],
        }
        self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))

    def _rules(self, spec: str, sitting: Sitting, lang: str) -> engine.RuleSet:
        kind, _sep, key = spec.partition(":")
        try:
            if spec in engine.PRESETS:
                return engine.PRESETS[spec]
            if kind == "saved":
                pk = command_int(key, f"--rules: {spec!r} is not saved:ID")
                saved = SavedRuleSet.objects.filter(owner=sitting.owner_id, pk=pk).first()
                if saved is None:
                    raise CommandError(f"--rules: the sitting's owner has no rule set {key}")
                return engine.ruleset_from_dict(saved.data)
            path = Path(spec)
            if not path.is_file():
                known = ", ".join(engine.PRESETS)
                raise CommandError(f"--rules: no preset {spec!r} (known: {known}) and no such file")
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, ValueError) as exc:
                raise CommandError(f"--rules: cannot read {spec}: {exc}") from None
            if not isinstance(data, dict):
                raise CommandError(f"--rules: {spec} must hold a JSON object (a rule set)")
            return engine.load_rules(data)
        except engine.InvalidRuleSet as exc:
            raise CommandError(f"--rules: {exc.problems[0].message(lang)}") from None
