#!/usr/bin/env python3
"""Generate the small PDF test fixtures in tests/fixtures/.

Usage (Python 3.11):

    python3 -m venv /tmp/fixenv
    /tmp/fixenv/bin/pip install reportlab pikepdf            # generation
    /tmp/fixenv/bin/pip install pypdfium2==5.15.2            # only for --verify
    /tmp/fixenv/bin/python scripts/make-fixtures.py [--verify] [--out DIR]

A TrueType font with Cyrillic glyphs is needed (DejaVu Sans; Debian package
``fonts-dejavu-core``).  Override its location with the DEJAVU_SANS env var.

Output is deterministic: reportlab runs with invariant=1 (fixed dates and
/ID), TTF subsets get deterministic names, and pikepdf is asked for a
deterministic (content-hash) /ID.  The one exception is encrypted.pdf:
AES-256 (R=6) encryption draws random salts, file key and IVs from the OS, so
a freshly encrypted file differs byte-wise on every run.  To keep re-runs
byte-identical anyway, an existing encrypted.pdf is kept when it still
decrypts (user "secret", owner "owner", R=6) to the same page content; pass
--force to re-encrypt unconditionally.

The distinctive per-page terms below are relied upon by tests; the script
asserts that every term occurs on its own page (heading + >= 3 times in the
body) and on no other page of the same file.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

import pikepdf

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "tests" / "fixtures"

FONT_CANDIDATES = [
    os.environ.get("DEJAVU_SANS", ""),
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
]

PAGE_W, PAGE_H = A4
MARGIN = 72.0
TEXT_W = PAGE_W - 2 * MARGIN
BODY_SIZE = 11.0
LEADING = 15.0
HEAD_SIZE = 18.0

# A page is (distinctive term, heading, list of body paragraphs).  A paragraph
# string containing "\n" is split there into separate lines *before* wrapping,
# which is how the forced hyphenation on multipage.pdf page 2 is produced.

MULTIPAGE = [
    (
        "chlorophyll",
        "Photosynthesis and Chlorophyll in Chloroplasts",
        [
            "Photosynthesis is the process by which green plants convert light "
            "energy into chemical energy stored in sugar. It takes place inside "
            "chloroplasts, small organelles found mainly in the cells of leaves. "
            "Each chloroplast contains stacks of thylakoid membranes that are "
            "packed with the pigment chlorophyll. Chlorophyll absorbs red and "
            "blue light very efficiently but reflects green light, which is why "
            "leaves look green to our eyes. The energy captured by chlorophyll "
            "is used to split water molecules and release oxygen into the air. "
            "In the second stage, called the Calvin cycle, carbon dioxide is "
            "fixed into simple sugars inside the fluid stroma. Without a steady "
            "supply of chlorophyll, a plant cannot feed itself and its leaves "
            "soon turn yellow. Nearly all life on Earth depends on this quiet "
            "chemistry that happens in every sunlit leaf."
        ],
    ),
    (
        "magma",
        "Volcanic Eruptions and Magma",
        [
            # HYPHENATION TEST: the word "eruption" in "a violent eruption that"
            # is deliberately split as "erup-" at the end of one text line and
            # "tion" at the start of the next line (two separate drawString
            # calls / BT..ET blocks).  A text extractor that joins hyphenated
            # line breaks should yield "violent eruption that"; a naive one
            # yields "violent erup-<newline>tion that".
            "A volcanic eruption begins deep underground, where rock melts to "
            "form magma. Because magma is lighter than the solid rock around "
            "it, it slowly rises toward the surface through cracks and "
            "channels. Gas dissolved in the molten rock expands as the pressure "
            "drops, much like bubbles in a shaken bottle of soda. When the "
            "pressure becomes too great, the volcano releases its energy in a "
            "violent erup-\n"
            "tion that can throw ash high into the sky. Thick, sticky magma "
            "tends to trap gas and produce explosive blasts, while runny magma "
            "usually flows out gently as lava. Scientists monitor small "
            "earthquakes, ground swelling and gas emissions to forecast "
            "dangerous activity. Some ash clouds travel around the globe and "
            "can cool the climate for a year or more. Living near a volcano is "
            "risky, yet its fertile soils attract millions of farmers."
        ],
    ),
    (
        "portcullis",
        "Medieval Castle Architecture: The Portcullis",
        [
            "Medieval castles were built to protect their owners and to show "
            "power across the surrounding land. Thick stone walls, tall towers "
            "and a deep moat made a direct attack slow and costly. The main "
            "gatehouse was often the strongest part of the whole castle. Inside "
            "its passage hung a heavy portcullis, a grid of oak and iron that "
            "could be dropped in seconds. Many gatehouses had two of these "
            "gates, so attackers could be trapped between the outer portcullis "
            "and the inner one. Defenders then poured stones or boiling water "
            "through holes in the ceiling above. Raising a portcullis required "
            "a winch and several strong men in a room over the gate. Today "
            "visitors can still see the grooves in the stone where the "
            "portcullis once slid up and down."
        ],
    ),
    (
        "zooxanthellae",
        "Coral Reef Ecology and Zooxanthellae",
        [
            "Coral reefs cover a tiny fraction of the ocean floor, yet they "
            "shelter about a quarter of all marine species. A reef is built by "
            "colonies of small animals called polyps that produce hard "
            "skeletons of calcium carbonate. Living inside the tissue of these "
            "polyps are microscopic algae known as zooxanthellae. The "
            "zooxanthellae capture sunlight and share the food they make with "
            "their coral hosts. In return, the coral provides shelter and "
            "nutrients that the algae need to grow. When the water becomes too "
            "warm, the stressed coral expels its zooxanthellae and turns pale, "
            "an event called bleaching. If temperatures fall quickly, the algae "
            "can return and the reef may recover. Protecting reefs means "
            "reducing pollution, overfishing and the warming of the seas."
        ],
    ),
    (
        "turbofan",
        "Jet Engine Design: The Turbofan",
        [
            "Most modern airliners are powered by a type of jet engine called "
            "the turbofan. At the front of a turbofan sits a large fan that "
            "pulls huge amounts of air into the engine. Only a small part of "
            "that air enters the core, where it is compressed, mixed with fuel "
            "and burned. The hot gases spin a turbine, which in turn drives the "
            "compressor and the fan through a long shaft. Most of the thrust, "
            "however, comes from the cool air that the fan pushes around the "
            "core. This bypass design makes a turbofan quieter and far more "
            "efficient than the early turbojets. Engineers use light titanium "
            "blades and advanced ceramics to survive extreme temperatures. "
            "Every improvement in efficiency saves fuel and reduces emissions "
            "on long flights."
        ],
    ),
    (
        "harpsichord",
        "Baroque Music and the Harpsichord",
        [
            "Baroque music flourished in Europe between roughly 1600 and 1750. "
            "Composers such as Bach, Handel and Vivaldi wrote richly ornamented "
            "works full of contrast and motion. The harpsichord was at the "
            "heart of much of this music. Unlike a piano, a harpsichord plucks "
            "its strings with small quills instead of striking them with "
            "hammers. Because it cannot play louder or softer by touch, players "
            "added ornaments and trills to shape each phrase. In an orchestra, "
            "the harpsichord often played the basso continuo, a steady harmonic "
            "foundation under the melody. Many famous suites and concertos were "
            "first performed in the courts and churches of German and Italian "
            "cities. Today musicians often use historical instruments to "
            "recreate the bright sound of the period."
        ],
    ),
]

CYRILLIC = [
    (
        "метрополитен",
        "Московский метрополитен",
        [
            "Московский метрополитен был открыт в мае 1935 года. Первая линия "
            "соединила станцию «Сокольники» с парком Горького. Сегодня "
            "метрополитен перевозит несколько миллионов пассажиров каждый "
            "день. Многие станции украшены мрамором, мозаиками, бронзовыми "
            "статуями и яркими люстрами. Поэтому туристы часто называют их "
            "подземными дворцами. Поезда приходят очень часто, а в час пик "
            "интервал составляет меньше двух минут. Кольцевая линия связывает "
            "между собой почти все радиальные направления и вокзалы. Каждый "
            "год метрополитен продолжает расти: строятся новые линии и станции "
            "на окраинах города. Проезд можно оплатить картой, телефоном или "
            "даже с помощью системы распознавания лица. Для жителей столицы "
            "это самый быстрый и надёжный вид транспорта."
        ],
    ),
    (
        "Байкал",
        "Озеро Байкал",
        [
            "Байкал — самое глубокое озеро на планете, его глубина превышает "
            "тысячу шестьсот метров. Он расположен в Восточной Сибири, между "
            "Иркутской областью и Республикой Бурятия. В озере Байкал хранится "
            "около двадцати процентов всей пресной воды на Земле. Вода здесь "
            "настолько прозрачна, что камни на дне видны на глубине нескольких "
            "метров. Зимой поверхность покрывается толстым льдом, по которому "
            "можно ездить на машине. В озере живут уникальные животные, "
            "например нерпа и рыба омуль. Большинство этих видов больше нигде "
            "в мире не встречается. Каждое лето Байкал привлекает тысячи "
            "туристов, любителей походов и фотографов."
        ],
    ),
    (
        "Достоевский",
        "Русская литература: Достоевский",
        [
            "Русская литература девятнадцатого века известна во всём мире. "
            "Пушкин создал современный литературный язык, а Гоголь и Тургенев "
            "продолжили его традиции. Фёдор Михайлович Достоевский писал о "
            "вере, свободе и внутренней борьбе человека. Самый известный его "
            "роман «Преступление и наказание» рассказывает о бедном студенте "
            "Раскольникове. В романе «Братья Карамазовы» Достоевский поднимает "
            "вечные вопросы о добре и зле. Лев Толстой, автор «Войны и мира», "
            "был его современником, хотя они никогда не встречались. Многие "
            "критики считают, что Достоевский предвосхитил психологию и "
            "философию двадцатого века. Его книги переведены на десятки языков "
            "и до сих пор читаются с большим интересом."
        ],
    ),
]

WITH_EMPTY = [
    (
        "camellia",
        "Tea Cultivation and Camellia sinensis",
        [
            "All true tea comes from a single plant species, Camellia sinensis. "
            "The camellia shrub grows best on misty hillsides with acidic soil "
            "and plenty of rain. Farmers prune the bushes to waist height so "
            "that pickers can reach the youngest leaves. Only the top two "
            "leaves and a bud are plucked for the finest teas. After harvest, "
            "the leaves are withered, rolled and dried to produce green, black "
            "or oolong varieties. Major growing regions include China, India, "
            "Sri Lanka and Kenya. A well tended camellia bush can keep "
            "producing leaves for more than fifty years."
        ],
    ),
    None,  # page 2: completely blank, nothing drawn
    (
        "arabica",
        "Coffee Roasting and Arabica Beans",
        [
            "Coffee beans are the seeds of a cherry that grows on tropical "
            "shrubs. The most prized species is arabica, which thrives at high "
            "altitudes in Ethiopia and Latin America. Green arabica beans have "
            "little aroma until they are roasted. During roasting, heat "
            "triggers sugars and amino acids to react and create hundreds of "
            "flavour compounds. A light roast keeps the fruity acidity of "
            "arabica, while a dark roast brings out bitter and smoky notes. "
            "Roasters listen for the first crack, a popping sound that signals "
            "the beans are expanding. After cooling, the beans should rest for "
            "a day before they are ground and brewed."
        ],
    ),
]

SPANISH = [
    (
        "flamenco",
        "El flamenco andaluz",
        [
            "El flamenco es un arte nacido en Andalucía, en el sur de España. "
            "Combina el cante, el baile y la guitarra en una expresión llena de "
            "pasión. Sus raíces se encuentran en la mezcla de culturas gitana, "
            "árabe, judía y castellana. Un buen espectáculo de flamenco "
            "transmite alegría, dolor y orgullo al mismo tiempo. Los bailaores "
            "marcan el ritmo con los tacones y con las palmas de las manos. En "
            "2010, la UNESCO declaró el flamenco Patrimonio Cultural Inmaterial "
            "de la Humanidad. Hoy se enseña en academias de todo el mundo, "
            "desde Japón hasta México."
        ],
    ),
    (
        "paella",
        "La paella valenciana",
        [
            "La paella es el plato más famoso de la cocina española. Su origen "
            "está en los campos de arroz que rodean la ciudad de Valencia. La "
            "receta tradicional lleva arroz, pollo, conejo, judías verdes, "
            "azafrán y aceite de oliva. Se cocina en una sartén ancha y poco "
            "profunda que también se llama paella. Lo más apreciado es el "
            "socarrat, la capa de arroz tostado que queda en el fondo. Los "
            "domingos, muchas familias se reúnen alrededor de la mesa para "
            "compartir una gran paella. Cada región de España añade su toque personal, con "
            "mariscos, pescado o verduras."
        ],
    ),
]

ENCRYPTED = [
    (
        "lighthouse",
        "Encrypted Fixture: The Lighthouse",
        [
            "This page belongs to a password protected test document. The old "
            "lighthouse stands on a rocky cape above the harbour. Every night "
            "the lighthouse keeper climbed the spiral stairs to light the lamp. "
            "Sailors trusted the lighthouse to guide them safely home."
        ],
    ),
    (
        "saffron",
        "Encrypted Fixture: Saffron",
        [
            "This is the second page of the password protected test document. "
            "Saffron is harvested by hand from the flowers of a crocus. It "
            "takes thousands of flowers to produce a small amount of saffron, "
            "which is why saffron is one of the most expensive spices."
        ],
    ),
]


# --------------------------------------------------------------------------


def find_font() -> str:
    for cand in FONT_CANDIDATES:
        if cand and Path(cand).is_file():
            return cand
    sys.exit(
        "DejaVuSans.ttf not found; install Debian package fonts-dejavu-core "
        "or set DEJAVU_SANS=/path/to/DejaVuSans.ttf"
    )


def check_terms(name: str, pages) -> None:
    """Each term: >= 4 occurrences on its page (heading + 3 in body) and none
    on any other page (case-insensitive, hyphenated line breaks joined)."""
    texts = [
        None if p is None else (p[1] + "\n" + "\n".join(p[2])).replace("-\n", "").lower()
        for p in pages
    ]
    for i, page in enumerate(pages):
        if page is None:
            continue
        term = page[0].lower()
        n = texts[i].count(term)
        assert n >= 4, f"{name} p{i + 1}: {term!r} occurs only {n} times"
        assert term in page[1].lower(), f"{name} p{i + 1}: {term!r} not in heading"
        for j, other in enumerate(texts):
            if j != i and other is not None:
                assert term not in other, f"{name}: {term!r} also on p{j + 1}"


def wrap(text: str, font: str, size: float) -> list[str]:
    lines: list[str] = []
    for chunk in text.split("\n"):  # "\n" = forced line break
        lines.extend(simpleSplit(chunk, font, size, TEXT_W))
    return lines


def render(pages, body_font: str, head_font: str, title: str) -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, invariant=1, pageCompression=1)
    c.setTitle(title)
    c.setAuthor("scripts/make-fixtures.py")
    c.setSubject("Test fixture")
    c.setCreator("scripts/make-fixtures.py")
    for page in pages:
        if page is not None:
            _term, heading, paragraphs = page
            y = PAGE_H - MARGIN
            c.setFont(head_font, HEAD_SIZE)
            c.drawString(MARGIN, y, heading)
            y -= HEAD_SIZE * 2
            for para in paragraphs:
                for line in wrap(para, body_font, BODY_SIZE):
                    c.setFont(body_font, BODY_SIZE)
                    c.drawString(MARGIN, y, line)  # one BT..ET per line
                    y -= LEADING
                y -= LEADING / 2
        c.showPage()
    c.save()
    return buf.getvalue()


def blank_page(data: bytes, index: int) -> bytes:
    """reportlab emits a preamble (``BT /F1 12 Tf 14.4 TL ET``) even on a page
    where nothing is drawn; make page ``index`` truly empty: empty content
    stream, no resources, hence no text objects at all."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[index]
        page.obj.Contents = pdf.make_stream(b"")
        page.obj.Resources = pikepdf.Dictionary()
        buf = io.BytesIO()
        pdf.save(buf, deterministic_id=True, fix_metadata_version=False)
    return buf.getvalue()


def encrypt(plain: bytes) -> bytes:
    with pikepdf.open(io.BytesIO(plain)) as pdf:
        buf = io.BytesIO()
        pdf.save(
            buf,
            encryption=pikepdf.Encryption(user="secret", owner="owner", R=6, aes=True),
            fix_metadata_version=False,
            static_id=True,  # fixed /ID; salts/keys/IVs stay random (see docstring)
        )
    return buf.getvalue()


def page_streams(pdf: pikepdf.Pdf) -> list[bytes]:
    return [p.obj.Contents.read_bytes() for p in pdf.pages]


def encrypted_is_current(path: Path, plain: bytes) -> bool:
    """True if an existing encrypted.pdf already has the wanted passwords,
    encryption and page content (so it need not be rewritten)."""
    if not path.is_file():
        return False
    try:
        with pikepdf.open(path, password="owner") as pdf:
            if not pdf.owner_password_matched:
                return False
        with pikepdf.open(path, password="secret") as pdf, \
                pikepdf.open(io.BytesIO(plain)) as ref:
            info = pdf.encryption
            return (
                pdf.user_password_matched
                and info.R == 6
                and info.bits == 256
                and page_streams(pdf) == page_streams(ref)
            )
    except pikepdf.PdfError:
        return False


def write(out: Path, name: str, data: bytes) -> None:
    path = out / name
    path.write_bytes(data)
    size = len(data)
    assert size < 60 * 1024, f"{name} is too large: {size} bytes"
    print(f"wrote {path} ({size} bytes)")


def generate(out: Path, force: bool = False) -> None:
    out.mkdir(parents=True, exist_ok=True)
    pdfmetrics.registerFont(TTFont("DejaVuSans", find_font()))  # subset on embed

    for name, pages in [
        ("multipage.pdf", MULTIPAGE),
        ("cyrillic.pdf", CYRILLIC),
        ("with-empty-page.pdf", WITH_EMPTY),
        ("spanish.pdf", SPANISH),
        ("encrypted.pdf", ENCRYPTED),
    ]:
        check_terms(name, pages)

    write(out, "multipage.pdf",
          render(MULTIPAGE, "Helvetica", "Helvetica-Bold", "Multipage fixture"))
    write(out, "cyrillic.pdf",
          render(CYRILLIC, "DejaVuSans", "DejaVuSans", "Cyrillic fixture"))
    write(out, "with-empty-page.pdf", blank_page(
          render(WITH_EMPTY, "Helvetica", "Helvetica-Bold", "Fixture with an empty page"),
          WITH_EMPTY.index(None)))
    write(out, "spanish.pdf",
          render(SPANISH, "DejaVuSans", "DejaVuSans", "Spanish fixture"))

    # encrypted.pdf: user password "secret", owner password "owner", AES-256 R=6.
    plain = render(ENCRYPTED, "Helvetica", "Helvetica-Bold", "Encrypted fixture")
    if not force and encrypted_is_current(out / "encrypted.pdf", plain):
        print(f"kept {out / 'encrypted.pdf'} (content unchanged; --force re-encrypts)")
    else:
        write(out, "encrypted.pdf", encrypt(plain))

    # zero-pages.pdf: valid catalog + empty page tree (/Count 0, /Kids []).
    with pikepdf.new() as pdf:
        buf = io.BytesIO()
        pdf.save(buf, deterministic_id=True, fix_metadata_version=False)
    write(out, "zero-pages.pdf", buf.getvalue())


# --------------------------------------------------------------------------


def verify(out: Path) -> None:
    import pypdfium2 as pdfium

    print(f"\n== verification with pdfium (pypdfium2 {pdfium.PYPDFIUM_INFO}, pdfium {pdfium.PDFIUM_INFO}) ==")
    for name in sorted(p.name for p in out.glob("*.pdf")):
        print(f"{name}: {(out / name).stat().st_size} bytes")

    for name, pages in [
        ("multipage.pdf", MULTIPAGE),
        ("cyrillic.pdf", CYRILLIC),
        ("with-empty-page.pdf", WITH_EMPTY),
        ("spanish.pdf", SPANISH),
    ]:
        doc = pdfium.PdfDocument(str(out / name))
        print(f"\n{name}: {len(doc)} pages")
        assert len(doc) == len(pages)
        extracted = []
        for i in range(len(doc)):
            tp = doc[i].get_textpage()
            extracted.append(tp.get_text_range())
            print(f"  p{i + 1}: {extracted[-1][:100]!r}")
        for i, page in enumerate(pages):
            if page is None:
                assert extracted[i].strip() == "", f"{name} p{i + 1} not empty"
                continue
            term = page[0].lower()
            assert term in extracted[i].lower(), f"{name} p{i + 1}: {term!r} missing"
            for j, other in enumerate(extracted):
                if j != i:
                    assert term not in other.lower(), f"{name}: {term!r} on p{j + 1}"
        if name == "multipage.pdf":
            t = extracted[1]
            k = t.find("erup", t.find("violent"))
            print(f"  p2 around hyphenation: {t[k - 20:k + 30]!r}")
        doc.close()

    print()
    try:
        pdfium.PdfDocument(str(out / "encrypted.pdf"))
    except pdfium.PdfiumError as e:
        print(f"encrypted.pdf without password: fails as expected: {e}")
    else:
        raise AssertionError("encrypted.pdf opened without a password")
    doc = pdfium.PdfDocument(str(out / "encrypted.pdf"), password="secret")
    print(f"encrypted.pdf with 'secret': {len(doc)} pages, p1: "
          f"{doc[0].get_textpage().get_text_range()[:60]!r}")
    assert len(doc) == 2
    doc.close()

    raw = pdfium.raw
    h = raw.FPDF_LoadDocument(str(out / "encrypted.pdf").encode() + b"\0", None)
    print(f"encrypted.pdf raw FPDF_LoadDocument(no password): handle null={not h}, "
          f"FPDF_GetLastError()={raw.FPDF_GetLastError()} (4 = FPDF_ERR_PASSWORD)")
    assert not h

    # pypdfium2's PdfDocument itself refuses documents with < 1 page (its own
    # check, not pdfium's), so use the raw C API for the zero-page file.
    h = raw.FPDF_LoadDocument(str(out / "zero-pages.pdf").encode() + b"\0", None)
    assert h, f"zero-pages.pdf failed to load: {raw.FPDF_GetLastError()}"
    n = raw.FPDF_GetPageCount(h)
    raw.FPDF_CloseDocument(h)
    print(f"zero-pages.pdf: raw FPDF_LoadDocument ok, FPDF_GetPageCount() = {n}")
    assert n == 0
    try:
        pdfium.PdfDocument(str(out / "zero-pages.pdf"))
    except pdfium.PdfiumError as e:
        print(f"  (pypdfium2.PdfDocument rejects it by design: {e})")
    print("\nall checks passed")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--force", action="store_true",
                    help="re-encrypt encrypted.pdf even if its content is unchanged")
    ap.add_argument("--verify", action="store_true",
                    help="check the generated files with pypdfium2")
    args = ap.parse_args()
    generate(args.out, args.force)
    if args.verify:
        verify(args.out)


if __name__ == "__main__":
    main()
