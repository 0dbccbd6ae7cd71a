"""How the site writes and reads text and numbers: ``typed`` (text form fields checked by the
engine, and the language the engine's messages are asked in), ``numbers`` (number fields,
query and command-line numbers), ``money`` (đồng as people read them), ``wording`` (what the
ledger stores as codes, in the reader's words), ``csvfile`` (the one CSV writer), ``vietqr``
(VietQR payment codes) and ``rulesbook`` (``docs/rules.md`` as HTML)."""
