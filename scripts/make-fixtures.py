#!/usr/bin/env python3
"""Generate the small PDF test fixtures in tests/fixtures/.

Usage (Python 3.11):

    python3 -m venv /tmp/fixenv
    /tmp/fixenv/bin/pip install reportlab pikepdf            # generation (Pillow comes with reportlab)
    /tmp/fixenv/bin/pip install pypdfium2==5.15.2            # only for --verify
    /tmp/fixenv/bin/python scripts/make-fixtures.py [--verify] [--out DIR]

TrueType fonts with Cyrillic glyphs are needed (DejaVu Sans, and DejaVu Serif for
the scans; Debian package ``fonts-dejavu-core``).  Override their locations with the
DEJAVU_SANS and DEJAVU_SERIF env vars.

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
import json
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

# Scanned pages: drawn into a 1-bit image (no text layer) for the OCR tests.  A
# page is (distinctive term, heading, body paragraphs, phrase); the phrase is a
# run of body words that occurs once in the file, and the tests ask about it and
# look for its words' boxes where the script records it drew them.

SCANNED_ENGLISH = [
    (
        "beekeeping",
        "Beekeeping and the Honeycomb",
        [
            "Beekeeping is one of the oldest forms of farming. A hive holds a "
            "single queen, a few hundred drones and tens of thousands of worker "
            "bees. The workers build the honeycomb from wax that they produce "
            "in glands on their bellies. Each cell of the comb is a perfect "
            "hexagon, a shape that stores the most honey with the least wax. "
            "In spring the queen lays up to two thousand eggs every day. "
            "Modern beekeeping uses wooden frames that can be lifted out and "
            "inspected without harming the colony. A calm beekeeper moves "
            "slowly and uses gentle smoke to keep the bees quiet. Good "
            "beekeeping also helps farmers, because bees pollinate fruit trees "
            "and many field crops."
        ],
        "the queen lays up to two thousand eggs",
    ),
    (
        "glacier",
        "How a Glacier Shapes the Land",
        [
            "A glacier is a river of ice that moves slowly downhill under its "
            "own weight. It forms where more snow falls in winter than melts "
            "in summer, year after year. As the glacier flows, it scrapes the "
            "ground beneath it and carries boulders, gravel and fine rock "
            "flour. Over thousands of years a glacier carves deep valleys with "
            "steep walls and flat floors. When the ice finally melts, it leaves "
            "long ridges of rubble called moraines. Many lakes in northern "
            "countries fill hollows that were dug by ice. Scientists measure "
            "how fast each glacier retreats to follow the warming of the "
            "climate."
        ],
        "a glacier carves deep valleys with steep walls",
    ),
]

SCANNED_RUSSIAN = [
    (
        "Эрмитаж",
        "Государственный Эрмитаж",
        [
            "Эрмитаж — один из крупнейших художественных музеев мира. Он "
            "находится в Санкт-Петербурге, на берегу Невы. Главное здание "
            "музея — Зимний дворец, бывшая резиденция российских императоров. "
            "Коллекция насчитывает более трёх миллионов предметов искусства "
            "и памятников культуры. Эрмитаж основала Екатерина Вторая, купив "
            "картины у берлинского торговца. Сегодня в залах Эрмитажа можно "
            "увидеть работы Леонардо да Винчи, Рембрандта и Матисса. Чтобы "
            "обойти все залы, понадобится несколько дней. Каждый год Эрмитаж "
            "посещают миллионы гостей со всего света."
        ],
        "коллекция насчитывает более трёх миллионов предметов",
    ),
    (
        "самовар",
        "Русский самовар",
        [
            "Самовар — символ русского чаепития и домашнего уюта. Внутри "
            "медного сосуда проходит труба, в которой горят угли или "
            "древесные шишки. Раньше самовар кипятил воду для чая целой "
            "семье. Крепкую заварку держали в маленьком чайнике, который "
            "ставили сверху. Самые известные мастера работали в городе Туле. "
            "За столом с самоваром собирались родные и соседи, вели долгие "
            "беседы. Сегодня электрический самовар можно встретить во многих "
            "домах и ресторанах."
        ],
        "самовар кипятил воду для чая целой семье",
    ),
]

SCANNED_SPANISH = [
    (
        "Alhambra",
        "La Alhambra de Granada",
        [
            "La Alhambra es un conjunto de palacios y fortalezas construido "
            "sobre una colina de Granada. Fue la residencia de los reyes "
            "nazaríes durante más de dos siglos. Sus muros rojizos dieron "
            "nombre al monumento, que en árabe significa la roja. En el "
            "interior de la Alhambra hay patios con fuentes, arcos finos y "
            "techos decorados con madera tallada. Muy cerca se encuentran los "
            "jardines del Generalife, llenos de rosas y acequias. Cada año la "
            "Alhambra recibe a millones de visitantes de todo el mundo."
        ],
        "los jardines del Generalife llenos de rosas",
    ),
    (
        "tortilla",
        "La tortilla de patatas",
        [
            "La tortilla de patatas es un plato sencillo y muy popular en "
            "España. Se prepara con patatas, huevos, aceite de oliva y sal; "
            "algunas personas añaden cebolla. Primero las patatas se fríen "
            "despacio hasta que quedan tiernas. Después se mezclan con los "
            "huevos batidos y se cuajan en una sartén. Darle la vuelta a la "
            "tortilla con un plato exige práctica y un poco de valor. Se sirve "
            "caliente o fría, y una buena tortilla sirve como tapa o como cena "
            "ligera."
        ],
        "darle la vuelta a la tortilla con un plato",
    ),
]

# mixed.pdf: text-layer pages around a scanned one whose text layer holds only a
# stray page number (what a scanner's software often leaves).
MIXED_TEXT = [
    (
        "windmill",
        "Windmills of the Low Countries",
        [
            "For centuries the windmill was the engine of the Netherlands. A "
            "windmill turned its great sails to face the wind and drove "
            "millstones or pumps. Rows of windmill pumps lifted water out of "
            "the low fields and into canals, creating dry land called polders. "
            "Millers could set the sails in coded positions to send messages "
            "to their neighbours."
        ],
    ),
    (
        "sundial",
        "Telling Time with a Sundial",
        [
            "A sundial tells the time from the shadow of a slanted rod called "
            "the gnomon. As the sun crosses the sky, the shadow moves around "
            "the dial and points to the hour. A sundial must be aligned with "
            "true north and built for its latitude to be accurate. Many "
            "churches and gardens still keep a sundial on a sunny wall."
        ],
    ),
]

MIXED_SCANNED = (
    "origami",
    "The Art of Origami",
    [
        "Origami is the Japanese art of folding paper into figures without "
        "cutting or gluing. A classic model begins with a single square "
        "sheet of paper and a few basic folds. The paper crane is the most "
        "famous origami figure and a symbol of peace and long life. "
        "Engineers borrow origami patterns to pack solar panels and "
        "airbags into small spaces. Patient folders can create animals, "
        "flowers and even working boxes."
    ],
    "begins with a single square sheet of paper",
)
MIXED_STRAY_TEXT = "- 2 -"

# Scans are drawn at this resolution, in a serif face as most printed matter is.
SCAN_DPI = 300
SERIF_CANDIDATES = [
    os.environ.get("DEJAVU_SERIF", ""),
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "/usr/share/fonts/TTF/DejaVuSerif.ttf",
    "/usr/share/fonts/dejavu/DejaVuSerif.ttf",
]


# --------------------------------------------------------------------------


def first_file(candidates: list[str], missing: str) -> str:
    """The first of `candidates` that is a file; exits with `missing` when none is."""
    for cand in candidates:
        if cand and Path(cand).is_file():
            return cand
    sys.exit(missing)


def find_font() -> str:
    return first_file(
        FONT_CANDIDATES,
        "DejaVuSans.ttf not found; install Debian package fonts-dejavu-core "
        "or set DEJAVU_SANS=/path/to/DejaVuSans.ttf",
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

    generate_structured(out)
    generate_scans(out)


# --------------------------------------------------------------------------
# Documents with structure: an outline (bookmarks), headings only, a slide deck.
# Their trees' sections must follow the chapters (tests/document_structure.rs).

def prose(topic: str, sentences: int = 7) -> str:
    """A paragraph about `topic` long enough that the page is prose, not a slide."""
    base = [
        f"This part of the manual explains the {topic} in plain words.",
        f"Every technician should read the notes on the {topic} before starting work.",
        "The steps are listed in the order in which they are carried out on site.",
        "Keep the tools clean and dry, and record each step in the service log.",
        "When in doubt, stop and ask the supervisor before going further.",
        "Mistakes made here are expensive to correct once the unit is sealed.",
        "The drawings at the end of the manual show each part in detail.",
        "Check the serial number of the unit against the delivery note.",
    ]
    return " ".join(base[:sentences])


# (title, depth, [page bodies]); a chapter's pages follow its title.
OUTLINED = [
    ("1 Getting started", 1, ["unpacking crate", "safety goggles", "site survey"]),
    ("2 Installing the pump", 1, []),
    ("2.1 Mounting bracket", 2, ["anchor bolts", "bracket torque"]),
    ("2.2 Wiring the motor", 2, ["terminal block", "earth conductor"]),
    ("3 Maintenance", 1, ["bearing grease", "impeller wear", "seal replacement"]),
]


def render_body_pages(c, bodies, font="Helvetica") -> None:
    for body in bodies:
        y = PAGE_H - MARGIN
        for line in wrap(prose(body), font, BODY_SIZE):
            c.setFont(font, BODY_SIZE)
            c.drawString(MARGIN, y, line)
            y -= LEADING
        c.showPage()


def render_outlined() -> bytes:
    """Ten pages of prose with no heading on any page: the chapters are only in the outline."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, invariant=1, pageCompression=1)
    c.setTitle("Pump installation manual")
    c.setAuthor("scripts/make-fixtures.py")
    for index, (title, depth, bodies) in enumerate(OUTLINED):
        key = f"section{index}"
        c.bookmarkPage(key)
        c.addOutlineEntry(title, key, level=depth - 1)
        render_body_pages(c, bodies)
    c.save()
    return buf.getvalue()


HEADED = [
    ("1. Introduction", ["study area", "research questions"]),
    ("2. Field observations", ["river sediment", "water temperature", "fish counts"]),
    ("3. Conclusions", ["restoration plan", "future monitoring"]),
]


def render_headed() -> bytes:
    """Seven pages, no outline: each chapter opens with a numbered heading line."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, invariant=1, pageCompression=1)
    c.setTitle("River survey report")
    c.setAuthor("scripts/make-fixtures.py")
    for heading, bodies in HEADED:
        for number, body in enumerate(bodies):
            y = PAGE_H - MARGIN
            if number == 0:
                c.setFont("Helvetica-Bold", HEAD_SIZE)
                c.drawString(MARGIN, y, heading)
                y -= HEAD_SIZE * 2
            for line in wrap(prose(body), "Helvetica", BODY_SIZE):
                c.setFont("Helvetica", BODY_SIZE)
                c.drawString(MARGIN, y, line)
                y -= LEADING
            c.showPage()
    c.save()
    return buf.getvalue()


# A slide: a title and a few bullets of a few words.
SLIDES = [
    ("Quarterly business review", ["Third quarter", "Sales team"]),
    ("Agenda", ["Results", "Customers", "Next steps"]),
    ("Revenue by product line", ["Pumps 41 M", "Valves 27 M", "Service 12 M"]),
    ("Customer churn by region", ["EMEA 4.1 %", "APAC 3.2 %", "Americas 2.7 %"]),
    ("Hiring plan", ["Six engineers", "Two in support"]),
    ("Open risks", ["Supplier delays", "Currency"]),
    ("Next steps", ["Board review in May"]),
]


def render_slides() -> bytes:
    """A landscape deck of seven slides, a title and bullets each, no outline."""
    buf = io.BytesIO()
    size = (A4[1], A4[0])
    c = canvas.Canvas(buf, pagesize=size, invariant=1, pageCompression=1)
    c.setTitle("Quarterly business review")
    c.setAuthor("scripts/make-fixtures.py")
    for title, bullets in SLIDES:
        y = size[1] - MARGIN
        c.setFont("Helvetica-Bold", 28)
        c.drawString(MARGIN, y, title)
        y -= 60
        for bullet in bullets:
            c.setFont("Helvetica", 20)
            c.drawString(MARGIN + 20, y, f"- {bullet}")
            y -= 34
        c.showPage()
    c.save()
    return buf.getvalue()


def generate_structured(out: Path) -> None:
    write(out, "with-outline.pdf", render_outlined())
    write(out, "headings-only.pdf", render_headed())
    write(out, "slides.pdf", render_slides())
    check_terms("page-labels.pdf", LABELLED)
    write(out, "page-labels.pdf", render_labelled())


# A book whose front matter is numbered i, ii and its chapters 1, 2, 3, 4: page
# labels (the /PageLabels number tree), not numbers printed on the pages, which
# carry none, so that only the labels can tell a search which page "page 2" is.
LABELLED = [
    ("marmalade", "Preface: why marmalade", [
        "This small book began as a notebook kept beside the marmalade pans. "
        "Every winter the bitter oranges arrive, and every winter the marmalade "
        "is made the same way, slowly, with patience and a great deal of sugar. "
        "The notes on marmalade grew into advice on the whole orchard."]),
    ("almanac", "Acknowledgements and the almanac", [
        "Thanks are due to the neighbours who lent their almanac of frosts and "
        "rains, kept by hand for half a century. Without that almanac the dates "
        "in this book would be guesses. The almanac now lives on the kitchen "
        "shelf, its pages soft with use."]),
    ("loam", "Chapter one: loam and drainage", [
        "Fruit trees want a deep loam that drains after rain. Heavy clay can be "
        "opened with grit and compost until it behaves like loam; sand can be "
        "fed until it holds water. Dig a test hole before planting and watch how "
        "fast the water leaves it: good loam empties within a day."]),
    ("secateurs", "Chapter two: pruning with secateurs", [
        "Prune in late winter with clean, sharp secateurs. Blunt secateurs crush "
        "the bark and invite disease. Cut just above an outward facing bud, at a "
        "slant, and wipe the secateurs between trees so that canker does not "
        "travel along the row."]),
    ("rootstock", "Chapter three: grafting onto rootstock", [
        "The rootstock decides how tall a tree will grow. A dwarfing rootstock "
        "gives a tree that fruits early and stays within reach of a short "
        "ladder; a vigorous rootstock gives a tree for a meadow. Graft in spring "
        "when the sap rises, and bind the union firmly."]),
    ("cider", "Chapter four: harvest and cider", [
        "Pick dessert apples when they come away with a gentle twist. The "
        "windfalls and the bruised fruit go to cider: wash them, crush them, and "
        "press the pulp in cloths. Cider ferments best in a cool barn, and young "
        "cider is ready to drink by the first warm days of spring."]),
]


def render_labelled() -> bytes:
    """Six pages labelled i, ii, 1, 2, 3, 4 through the catalog's /PageLabels."""
    plain = render(LABELLED, "Helvetica", "Helvetica-Bold", "The orchard notebook")
    with pikepdf.open(io.BytesIO(plain)) as pdf:
        pdf.Root.PageLabels = pikepdf.Dictionary(Nums=pikepdf.Array([
            0, pikepdf.Dictionary(S=pikepdf.Name.r),
            2, pikepdf.Dictionary(S=pikepdf.Name.D),
        ]))
        buf = io.BytesIO()
        pdf.save(buf, deterministic_id=True, fix_metadata_version=False)
    return buf.getvalue()


# -- scanned pages ----------------------------------------------------------


def find_serif() -> str:
    return first_file(
        SERIF_CANDIDATES,
        "DejaVuSerif.ttf not found; install Debian package fonts-dejavu-core "
        "(or fonts-dejavu-extra) or set DEJAVU_SERIF=/path/to/DejaVuSerif.ttf",
    )


def words_of(text: str) -> list[str]:
    """Lower-case words without the punctuation around them, as the tests compare."""
    out = []
    for raw in text.split():
        word = raw.strip(".,;:!?«»—()'\"").lower()
        if word:
            out.append(word)
    return out


def draw_scan(page, serif: str):
    """Draws a page's heading and body into a 1-bit A4 image at SCAN_DPI, the way
    a page would come off a scanner (no text layer).  Returns the image and every
    drawn word with its box in pixels (left, top, right, bottom)."""
    from PIL import Image, ImageDraw, ImageFont

    _term, heading, paragraphs = page[:3]
    px = SCAN_DPI / 72.0
    width, height = round(PAGE_W * px), round(PAGE_H * px)
    image = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(image)
    drawn: list[tuple[str, tuple[float, float, float, float]]] = []

    def line(text: str, font, x: float, baseline: float) -> None:
        draw.text((x, baseline), text, font=font, fill=0, anchor="ls")
        ascent, descent = font.getmetrics()
        cursor = x
        for i, word in enumerate(text.split(" ")):
            if i:
                cursor += font.getlength(" ")
            w = font.getlength(word)
            drawn.append((word, (cursor, baseline - ascent, cursor + w, baseline + descent)))
            cursor += w

    head = ImageFont.truetype(serif, round(HEAD_SIZE * px))
    body = ImageFont.truetype(serif, round(BODY_SIZE * px))
    left, right = MARGIN * px, (PAGE_W - MARGIN) * px
    y = MARGIN * px
    line(heading, head, left, y)
    y += HEAD_SIZE * 2 * px
    for para in paragraphs:
        current = ""
        for word in para.split():
            candidate = f"{current} {word}".strip()
            if current and body.getlength(candidate) > right - left:
                line(current, body, left, y)
                y += LEADING * px
                current = word
            else:
                current = candidate
        if current:
            line(current, body, left, y)
            y += LEADING * px
        y += LEADING / 2 * px
    # A scanner's black-and-white mode: anti-aliased edges thresholded.
    return image.point(lambda v: 255 if v > 140 else 0, mode="1"), drawn


def phrase_boxes(page, drawn, name: str) -> list[list[float]]:
    """The boxes, in PDF points (origin bottom-left), of the drawn words that make
    up the page's phrase; the phrase must occur exactly once."""
    wanted = words_of(page[3])
    got = [words_of(word) for word, _ in drawn]
    flat = [(w[0] if w else "") for w in got]
    starts = [i for i in range(len(flat)) if flat[i:i + len(wanted)] == wanted]
    assert len(starts) == 1, f"{name}: phrase {page[3]!r} found {len(starts)} times"
    scale = 72.0 / SCAN_DPI
    boxes = []
    for _, (l, t, r, b) in drawn[starts[0]:starts[0] + len(wanted)]:
        boxes.append([round(l * scale, 2), round(PAGE_H - b * scale, 2),
                      round(r * scale, 2), round(PAGE_H - t * scale, 2)])
    return boxes


def group4(image) -> bytes:
    """CCITT Group 4 data of a 1-bit image (the strip of a one-strip TIFF)."""
    from PIL import Image

    buf = io.BytesIO()
    image.save(buf, "TIFF", compression="group4", tiffinfo={278: image.height})
    data = buf.getvalue()
    tiff = Image.open(io.BytesIO(data))
    offsets, counts = tiff.tag_v2[273], tiff.tag_v2[279]
    assert len(offsets) == 1, "the scan was written in more than one strip"
    return data[offsets[0]:offsets[0] + counts[0]]


def place_scan(pdf: pikepdf.Pdf, index: int, image, keep_text: bool) -> None:
    """Makes page ``index`` show ``image`` over the whole page; its own content
    (a stray text layer) stays only with ``keep_text``."""
    stream = pikepdf.Stream(pdf, group4(image))
    stream.Type = pikepdf.Name.XObject
    stream.Subtype = pikepdf.Name.Image
    stream.Width, stream.Height = image.width, image.height
    stream.ColorSpace = pikepdf.Name.DeviceGray
    stream.BitsPerComponent = 1
    stream.Filter = pikepdf.Name.CCITTFaxDecode
    # Pillow writes the scan BlackIsZero: its zero bits are the ink.
    stream.DecodeParms = pikepdf.Dictionary(
        K=-1, Columns=image.width, Rows=image.height, BlackIs1=True)
    page = pdf.pages[index]
    draw = f"q {PAGE_W:.4f} 0 0 {PAGE_H:.4f} 0 0 cm /Scan Do Q\n".encode()
    if keep_text:
        page.contents_add(pdf.make_stream(draw), prepend=True)
        page.obj.Resources.XObject = pikepdf.Dictionary(Scan=stream)
    else:
        page.obj.Contents = pdf.make_stream(draw)
        page.obj.Resources = pikepdf.Dictionary(
            XObject=pikepdf.Dictionary(Scan=stream))


def scanned_pdf(pages, serif: str, title: str, name: str):
    """An image-only PDF of ``pages``, and what the tests know of each page."""
    blank = render([None] * len(pages), "Helvetica", "Helvetica-Bold", title)
    truth = []
    with pikepdf.open(io.BytesIO(blank)) as pdf:
        for index, page in enumerate(pages):
            image, drawn = draw_scan(page, serif)
            place_scan(pdf, index, image, keep_text=False)
            truth.append(page_truth(index + 1, page, drawn, name))
        buf = io.BytesIO()
        pdf.save(buf, deterministic_id=True, fix_metadata_version=False)
    return buf.getvalue(), truth


def page_truth(number: int, page, drawn, name: str) -> dict:
    return {
        "page": number,
        "term": page[0],
        "phrase": page[3],
        "words": [word for word, _ in drawn],
        "phrase_boxes": phrase_boxes(page, drawn, name),
    }


def mixed_pdf(serif: str):
    """Text pages around a scanned page that carries only a stray page number."""
    pages = [MIXED_TEXT[0], (None, MIXED_STRAY_TEXT, []), MIXED_TEXT[1]]
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, invariant=1, pageCompression=1)
    c.setTitle("Mixed fixture")
    c.setAuthor("scripts/make-fixtures.py")
    c.setSubject("Test fixture")
    c.setCreator("scripts/make-fixtures.py")
    for page in pages:
        if page[0] is None:
            c.setFont("Helvetica", 9)
            c.drawCentredString(PAGE_W / 2, MARGIN / 2, page[1])
        else:
            _term, heading, paragraphs = page
            y = PAGE_H - MARGIN
            c.setFont("Helvetica-Bold", HEAD_SIZE)
            c.drawString(MARGIN, y, heading)
            y -= HEAD_SIZE * 2
            for para in paragraphs:
                for text in wrap(para, "Helvetica", BODY_SIZE):
                    c.setFont("Helvetica", BODY_SIZE)
                    c.drawString(MARGIN, y, text)
                    y -= LEADING
        c.showPage()
    c.save()
    with pikepdf.open(io.BytesIO(buf.getvalue())) as pdf:
        image, drawn = draw_scan(MIXED_SCANNED, serif)
        place_scan(pdf, 1, image, keep_text=True)
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True, fix_metadata_version=False)
    return out.getvalue(), [page_truth(2, MIXED_SCANNED, drawn, "mixed.pdf")]


SCANNED_FILES = [
    ("scanned-english.pdf", SCANNED_ENGLISH, "Scanned English fixture"),
    ("scanned-russian.pdf", SCANNED_RUSSIAN, "Scanned Russian fixture"),
    ("scanned-spanish.pdf", SCANNED_SPANISH, "Scanned Spanish fixture"),
]


def generate_scans(out: Path) -> None:
    serif = find_serif()
    truth = {}
    for name, pages, title in SCANNED_FILES:
        check_terms(name, [page[:3] for page in pages])
        data, truth[name] = scanned_pdf(pages, serif, title, name)
        write(out, name, data)
    check_terms("mixed.pdf", [MIXED_TEXT[0], MIXED_SCANNED[:3], MIXED_TEXT[1]])
    data, truth["mixed.pdf"] = mixed_pdf(serif)
    write(out, "mixed.pdf", data)
    path = out / "scanned.json"
    path.write_text(json.dumps(truth, ensure_ascii=False, indent=1) + "\n")
    print(f"wrote {path}")
    write(out, "scanned-deck.pdf", scanned_deck(serif))


# A deck's first scan is its title: too few words to tell a language by.
DECK_TITLE = ("deck", "Field Notes", [], "")


def scanned_deck(serif: str) -> bytes:
    """A scanned deck: a title page, then three pages of English prose."""
    pages = [DECK_TITLE] + SCANNED_ENGLISH + [MULTIPAGE[0] + ("",)]
    blank = render([None] * len(pages), "Helvetica", "Helvetica-Bold", "Scanned deck fixture")
    with pikepdf.open(io.BytesIO(blank)) as pdf:
        for index, page in enumerate(pages):
            image, _drawn = draw_scan(page, serif)
            place_scan(pdf, index, image, keep_text=False)
        buf = io.BytesIO()
        pdf.save(buf, deterministic_id=True, fix_metadata_version=False)
    return buf.getvalue()


def bench_scan(path: Path, pages: int) -> None:
    """A longer scan for measuring OCR's speed (not a fixture): the English pages
    of the fixtures drawn as images, over and over."""
    serif = find_serif()
    sources = SCANNED_ENGLISH + [page + ("",) for page in MULTIPAGE]
    blank = render([None] * pages, "Helvetica", "Helvetica-Bold", "OCR bench scan")
    with pikepdf.open(io.BytesIO(blank)) as pdf:
        for index in range(pages):
            image, _ = draw_scan(sources[index % len(sources)], serif)
            place_scan(pdf, index, image, keep_text=False)
        pdf.save(path, deterministic_id=True, fix_metadata_version=False)
    print(f"wrote {path} ({pages} scanned pages, {path.stat().st_size} bytes)")



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

    doc = pdfium.PdfDocument(str(out / "page-labels.pdf"))
    labels = [pdfium_label(doc, i) for i in range(len(doc))]
    print(f"\npage-labels.pdf: labels {labels}")
    assert labels == ["i", "ii", "1", "2", "3", "4"], labels
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


def pdfium_label(doc, index: int) -> str:
    """Page `index`'s label as pdfium reads it (what PageTree stores)."""
    import ctypes
    import pypdfium2.raw as raw

    size = raw.FPDF_GetPageLabel(doc, index, None, 0)
    buffer = ctypes.create_string_buffer(size)
    raw.FPDF_GetPageLabel(doc, index, buffer, size)
    return buffer.raw[: size - 2].decode("utf-16-le")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--force", action="store_true",
                    help="re-encrypt encrypted.pdf even if its content is unchanged")
    ap.add_argument("--verify", action="store_true",
                    help="check the generated files with pypdfium2")
    ap.add_argument("--bench-scan", type=Path, metavar="PDF",
                    help="only write a scanned PDF for measuring OCR (--pages long)")
    ap.add_argument("--pages", type=int, default=20)
    args = ap.parse_args()
    if args.bench_scan:
        bench_scan(args.bench_scan, args.pages)
        return
    generate(args.out, args.force)
    if args.verify:
        verify(args.out)


if __name__ == "__main__":
    main()
