"""The paper an arbiter hands out: pairing lists, result slips, board cards, the wall chart,
standings and the players' list, laid out for A4 or Letter as PDF (reportlab) or printable HTML.

    documents  the documents as plain data, read from `pipelines.views` (no rule computed here)
    pdf        a document as PDF: header, "page i of n", rows never split, header rows repeated
    html       the same document as printable HTML (a print stylesheet, @page size)
"""
