"""manage.py is the file Django's startproject writes, nothing added."""

from pathlib import Path

import django

ROOT = Path(__file__).resolve().parents[2]


def test_manage_py_is_djangos_own():
    template = Path(django.__file__).parent / "conf" / "project_template" / "manage.py-tpl"
    stock = template.read_text(encoding="utf-8").replace("{{ project_name }}", "tienlen_site")
    assert (ROOT / "manage.py").read_text(encoding="utf-8") == stock
