"""The rules pages: each game's rules in the project's words, in English, Dutch, Greek and Danish.

The language is the ``lang`` query parameter when given, else the best match
of the browser's Accept-Language, else English. Every text is escaped.
"""

from __future__ import annotations

import html

__all__ = ["GAMES", "LANGUAGES", "index_page", "language", "not_found_page", "rules_page"]

GAMES = ("classic", "ultimate", "quantum")
LANGUAGES = {"en": "English", "nl": "Nederlands", "el": "Ελληνικά", "da": "Dansk"}

# lang -> game -> (title, paragraphs)
TEXTS: dict[str, dict[str, tuple[str, tuple[str, ...]]]] = {
    "en": {
        "classic": (
            "Classic noughts and crosses",
            (
                "Two players, X and O, take turns writing their symbol in an empty cell. X always moves first. "
                "The board is 3×3, or 4×4 or 5×5 in the table settings.",
                "Whoever completes a line of their symbols, across, down or diagonally and without gaps, wins at "
                "once. The line is three long on 3×3 and four long on 4×4 and 5×5. A full board without a line "
                "is a draw.",
                "Misère turns it round: whoever completes a line loses.",
                "Free choice: on every turn the player to move writes the symbol of their choice, X or O. A line "
                "of either symbol counts for the player who completed it.",
                "Gravity: the board stands upright. You pick a column and your mark drops to the lowest empty "
                "cell in it; a full column takes no more marks.",
                "Moves are written as cells, column letter and row number, a1 being the top-left cell; with "
                "gravity a move is a column letter, with free choice the symbol follows: b2=O.",
            ),
        ),
        "ultimate": (
            "Ultimate noughts and crosses",
            (
                "The board is a 3×3 grid of nine small 3×3 boards. X moves first and may play anywhere.",
                "The cell you play in sends your opponent: it names the small board where they must play next. "
                "Play in the bottom-left cell of any small board, and your opponent plays next in the bottom-left "
                "small board.",
                "Three in a row inside a small board wins it, and it becomes that player's square on the big "
                "board. A small board that fills up without a line counts for nobody. Won and full boards are "
                "closed: nobody plays in them again, and a player sent to a closed board may play in any open one.",
                "Three won small boards in a row on the big board win the game. When every small board is closed "
                "without such a line, the game is a draw.",
                "Moves are named on the 9×9 grid: columns a to i from the left, rows 1 to 9 from the top, so e5 "
                "is the centre of the centre board.",
            ),
        ),
        "quantum": (
            "Quantum noughts and crosses",
            (
                "The board is the usual 3×3 and a line of three wins, but marks do not settle at once. On each "
                "turn you write a pair of spooky marks of your symbol in two different cells, both carrying the "
                "number of the move: X writes the odd numbers 1, 3, 5, 7, 9 and O the even ones.",
                "Each pair links its two cells. When a new pair closes a loop of links, the loop collapses: the "
                "other player, the one who did not close it, chooses which of its two cells the newest mark lands "
                "in. That cell's other spooky marks must then land in their other cells, and so on along the "
                "links, until every mark tied to the loop is a classical mark. The choice is a move of its own.",
                "Only classical marks make lines. If a collapse makes a line for one player, that player wins. If "
                "it makes lines for both, the line completed earlier wins: for each player take the highest mark "
                "number in their line, and the lower number wins.",
                "When only one cell is left without a classical mark, no pair fits: X's ninth move is a single "
                "classical mark there. A full board without a line is a draw.",
                "Moves: a pair is written a1-b3, a collapse choice @a1 (the newest mark lands in a1), and the "
                "last single mark as its cell, c3.",
            ),
        ),
    },
    "nl": {
        "classic": (
            "Gewoon boter-kaas-en-eieren",
            (
                "Twee spelers, X en O, zetten om de beurt hun teken in een leeg vak. X begint altijd. Het bord "
                "is 3×3, of 4×4 of 5×5 in de tafelinstellingen.",
                "Wie een rij van zijn eigen tekens afmaakt, horizontaal, verticaal of diagonaal en zonder gaten, "
                "wint meteen. Op 3×3 is de rij drie lang, op 4×4 en 5×5 vier. Een vol bord zonder rij is remise.",
                "Misère draait het om: wie een rij afmaakt, verliest.",
                "Vrije keuze: elke beurt kiest de speler die aan zet is welk teken hij zet, X of O. Een rij van "
                "welk teken ook telt voor de speler die hem afmaakte.",
                "Zwaartekracht: het bord staat rechtop. Je kiest een kolom en je teken valt naar het laagste lege "
                "vak daarin; in een volle kolom kan niets meer.",
                "Zetten worden als vakken geschreven, kolomletter en rijnummer, met a1 linksboven; met "
                "zwaartekracht is een zet een kolomletter, met vrije keuze volgt het teken: b2=O.",
            ),
        ),
        "ultimate": (
            "Ultimate boter-kaas-en-eieren",
            (
                "Het bord is een raster van 3×3 met negen kleine borden van 3×3. X begint en mag overal spelen.",
                "Het vak waarin je speelt, stuurt je tegenstander: het wijst het kleine bord aan waar die daarna "
                "moet spelen. Speel linksonder in een klein bord, en je tegenstander speelt daarna in het kleine "
                "bord linksonder.",
                "Drie op een rij in een klein bord wint dat bord; het telt dan als vak van die speler op het grote "
                "bord. Een klein bord dat vol raakt zonder rij telt voor niemand. Gewonnen en volle borden zijn "
                "gesloten: daar speelt niemand meer, en wie naar een gesloten bord gestuurd wordt, mag in elk open "
                "bord spelen.",
                "Drie gewonnen kleine borden op een rij op het grote bord winnen het spel. Is elk klein bord "
                "gesloten zonder zo'n rij, dan is het remise.",
                "Zetten heten naar het raster van 9×9: kolommen a tot i van links, rijen 1 tot 9 van boven; e5 is "
                "het midden van het middelste bord.",
            ),
        ),
        "quantum": (
            "Kwantum-boter-kaas-en-eieren",
            (
                "Het bord is het gewone 3×3 en drie op een rij wint, maar tekens liggen niet meteen vast. Elke "
                "beurt zet je een paar spookachtige tekens van je symbool in twee verschillende vakken, allebei "
                "met het nummer van de zet: X heeft de oneven nummers 1, 3, 5, 7, 9 en O de even.",
                "Elk paar verbindt zijn twee vakken. Sluit een nieuw paar een kring van verbindingen, dan stort de "
                "kring in: de andere speler, die hem niet sloot, kiest in welk van zijn twee vakken het nieuwste "
                "teken landt. De andere spooktekens in dat vak moeten dan in hun andere vak landen, en zo verder "
                "langs de verbindingen, tot elk teken dat aan de kring hangt een klassiek teken is. Die keuze is "
                "een zet op zich.",
                "Alleen klassieke tekens maken rijen. Geeft een instorting één speler een rij, dan wint die. Geeft "
                "ze beide spelers een rij, dan wint de rij die eerder af was: neem voor elke speler het hoogste "
                "nummer in zijn rij; het laagste nummer wint.",
                "Is er nog maar één vak zonder klassiek teken, dan past er geen paar meer: de negende zet van X "
                "is daar één klassiek teken. Een vol bord zonder rij is remise.",
                "Zetten: een paar schrijf je a1-b3, een keuze bij instorting @a1 (het nieuwste teken landt in a1), "
                "en het laatste losse teken als zijn vak, c3.",
            ),
        ),
    },
    "el": {
        "classic": (
            "Κλασική τρίλιζα",
            (
                "Δύο παίκτες, το X και το O, γράφουν με τη σειρά το σύμβολό τους σε ένα άδειο τετράγωνο. Το X "
                "παίζει πάντα πρώτο. Το ταμπλό είναι 3×3, ή 4×4 ή 5×5 στις ρυθμίσεις του τραπεζιού.",
                "Όποιος συμπληρώνει μια γραμμή από τα σύμβολά του, οριζόντια, κάθετα ή διαγώνια και χωρίς κενά, "
                "κερδίζει αμέσως. Στο 3×3 η γραμμή έχει μήκος τρία, στο 4×4 και στο 5×5 τέσσερα. Γεμάτο ταμπλό "
                "χωρίς γραμμή σημαίνει ισοπαλία.",
                "Μιζέρ: όποιος συμπληρώνει γραμμή χάνει.",
                "Ελεύθερη επιλογή: σε κάθε κίνηση ο παίκτης που παίζει γράφει όποιο σύμβολο θέλει, X ή O. Μια "
                "γραμμή από οποιοδήποτε σύμβολο μετράει για τον παίκτη που τη συμπλήρωσε.",
                "Βαρύτητα: το ταμπλό στέκεται όρθιο. Διαλέγεις στήλη και το σημάδι σου πέφτει στο χαμηλότερο άδειο "
                "τετράγωνό της· σε γεμάτη στήλη δεν χωράει άλλο.",
                "Οι κινήσεις γράφονται ως τετράγωνα, γράμμα στήλης και αριθμός γραμμής, με το a1 πάνω αριστερά· με "
                "βαρύτητα η κίνηση είναι γράμμα στήλης, με ελεύθερη επιλογή ακολουθεί το σύμβολο: b2=O.",
            ),
        ),
        "ultimate": (
            "Ultimate τρίλιζα",
            (
                "Το ταμπλό είναι ένα πλέγμα 3×3 από εννέα μικρά ταμπλό 3×3. Το X παίζει πρώτο και μπορεί να παίξει "
                "οπουδήποτε.",
                "Το τετράγωνο όπου παίζεις στέλνει τον αντίπαλο: δείχνει το μικρό ταμπλό όπου θα παίξει μετά. "
                "Παίξε κάτω αριστερά σε ένα μικρό ταμπλό, και ο αντίπαλος παίζει μετά στο μικρό ταμπλό κάτω "
                "αριστερά.",
                "Τρία στη σειρά μέσα σε ένα μικρό ταμπλό το κερδίζουν, και τότε μετράει ως τετράγωνο του παίκτη στο "
                "μεγάλο ταμπλό. Μικρό ταμπλό που γεμίζει χωρίς γραμμή δεν μετράει για κανέναν. Τα κερδισμένα και τα "
                "γεμάτα ταμπλό κλείνουν: κανείς δεν παίζει ξανά εκεί, και όποιος σταλεί σε κλειστό ταμπλό παίζει σε "
                "όποιο ανοιχτό θέλει.",
                "Τρία κερδισμένα μικρά ταμπλό στη σειρά στο μεγάλο ταμπλό κερδίζουν το παιχνίδι. Αν κλείσουν όλα τα "
                "μικρά ταμπλό χωρίς τέτοια γραμμή, είναι ισοπαλία.",
                "Οι κινήσεις ονομάζονται στο πλέγμα 9×9: στήλες a έως i από αριστερά, γραμμές 1 έως 9 από πάνω· το "
                "e5 είναι το κέντρο του κεντρικού ταμπλό.",
            ),
        ),
        "quantum": (
            "Κβαντική τρίλιζα",
            (
                "Το ταμπλό είναι το συνηθισμένο 3×3 και τρία στη σειρά κερδίζουν, αλλά τα σημάδια δεν κάθονται "
                "αμέσως. Σε κάθε κίνηση γράφεις ένα ζεύγος «στοιχειωμένων» σημαδιών του συμβόλου σου σε δύο "
                "διαφορετικά τετράγωνα, και τα δύο με τον αριθμό της κίνησης: το X έχει τους μονούς αριθμούς 1, 3, "
                "5, 7, 9 και το O τους ζυγούς.",
                "Κάθε ζεύγος συνδέει τα δύο τετράγωνά του. Όταν ένα νέο ζεύγος κλείνει κύκλο συνδέσεων, ο κύκλος "
                "καταρρέει: ο άλλος παίκτης, αυτός που δεν τον έκλεισε, διαλέγει σε ποιο από τα δύο τετράγωνά του "
                "προσγειώνεται το νεότερο σημάδι. Τα άλλα στοιχειωμένα σημάδια εκείνου του τετραγώνου πηγαίνουν "
                "τότε στο άλλο τους τετράγωνο, και ούτω καθεξής κατά μήκος των συνδέσεων, ώσπου κάθε σημάδι του "
                "κύκλου να γίνει κλασικό. Η επιλογή είναι κίνηση από μόνη της.",
                "Μόνο τα κλασικά σημάδια κάνουν γραμμές. Αν μια κατάρρευση δίνει γραμμή σε έναν παίκτη, αυτός "
                "κερδίζει. Αν δίνει γραμμές και στους δύο, κερδίζει η γραμμή που συμπληρώθηκε νωρίτερα: για κάθε "
                "παίκτη πάρε τον μεγαλύτερο αριθμό στη γραμμή του· ο μικρότερος κερδίζει.",
                "Όταν μένει μόνο ένα τετράγωνο χωρίς κλασικό σημάδι, δεν χωράει ζεύγος: η ένατη κίνηση του X είναι "
                "ένα μόνο κλασικό σημάδι εκεί. Γεμάτο ταμπλό χωρίς γραμμή σημαίνει ισοπαλία.",
                "Κινήσεις: ένα ζεύγος γράφεται a1-b3, μια επιλογή κατάρρευσης @a1 (το νεότερο σημάδι πάει στο a1), "
                "και το τελευταίο μονό σημάδι με το τετράγωνό του, c3.",
            ),
        ),
    },
    "da": {
        "classic": (
            "Klassisk kryds og bolle",
            (
                "To spillere, X og O, skiftes til at skrive deres symbol i et tomt felt. X starter altid. Brættet "
                "er 3×3, eller 4×4 eller 5×5 i bordets indstillinger.",
                "Den, der fuldender en række af sine symboler, vandret, lodret eller diagonalt og uden huller, "
                "vinder med det samme. På 3×3 er rækken tre lang, på 4×4 og 5×5 fire. Et fuldt bræt uden række er "
                "uafgjort.",
                "Misère vender det om: den, der fuldender en række, taber.",
                "Frit valg: i hvert træk skriver spilleren i trækket det symbol, han vil, X eller O. En række af "
                "hvilket som helst symbol tæller for den spiller, der fuldendte den.",
                "Tyngdekraft: brættet står op. Du vælger en kolonne, og dit mærke falder ned i det nederste tomme "
                "felt i den; en fuld kolonne kan ikke tage flere.",
                "Træk skrives som felter, kolonnebogstav og rækkenummer, hvor a1 er feltet øverst til venstre; med "
                "tyngdekraft er et træk et kolonnebogstav, med frit valg følger symbolet: b2=O.",
            ),
        ),
        "ultimate": (
            "Ultimate kryds og bolle",
            (
                "Brættet er et 3×3-gitter af ni små 3×3-brætter. X starter og må spille hvor som helst.",
                "Feltet, du spiller i, sender modstanderen: det udpeger det lille bræt, hvor han skal spille "
                "næste gang. Spil nederst til venstre på et lille bræt, og modstanderen spiller derefter på det "
                "lille bræt nederst til venstre.",
                "Tre på række i et lille bræt vinder det, og det tæller så som spillerens felt på det store bræt. "
                "Et lille bræt, der bliver fuldt uden række, tæller for ingen. Vundne og fulde brætter er lukkede: "
                "ingen spiller der igen, og den, der sendes til et lukket bræt, må spille på et hvilket som helst "
                "åbent.",
                "Tre vundne små brætter på række på det store bræt vinder spillet. Er alle små brætter lukkede "
                "uden sådan en række, er det uafgjort.",
                "Træk navngives på 9×9-gitteret: kolonne a til i fra venstre, række 1 til 9 fra oven; e5 er midten "
                "af det midterste bræt.",
            ),
        ),
        "quantum": (
            "Kvante-kryds og bolle",
            (
                "Brættet er det sædvanlige 3×3, og tre på række vinder, men mærkerne lander ikke med det samme. I "
                "hvert træk skriver du et par spøgelsesmærker af dit symbol i to forskellige felter, begge med "
                "trækkets nummer: X har de ulige numre 1, 3, 5, 7, 9 og O de lige.",
                "Hvert par forbinder sine to felter. Når et nyt par lukker en ring af forbindelser, falder ringen "
                "sammen: den anden spiller, den der ikke lukkede den, vælger, i hvilket af dens to felter det "
                "nyeste mærke lander. De andre spøgelsesmærker i det felt må så lande i deres andet felt, og så "
                "videre langs forbindelserne, til hvert mærke i ringen er et klassisk mærke. Valget er et træk for "
                "sig.",
                "Kun klassiske mærker danner rækker. Giver et sammenfald én spiller en række, vinder han. Giver det "
                "begge spillere en række, vinder den række, der blev fuldendt først: tag for hver spiller det "
                "højeste nummer i hans række; det laveste nummer vinder.",
                "Når kun ét felt er tilbage uden klassisk mærke, er der ikke plads til et par: X's niende træk er "
                "ét klassisk mærke dér. Et fuldt bræt uden række er uafgjort.",
                "Træk: et par skrives a1-b3, et valg ved sammenfald @a1 (det nyeste mærke lander i a1), og det "
                "sidste enkelte mærke som sit felt, c3.",
            ),
        ),
    },
}

_UI = {
    "en": ("Rules", "Play", "Language"),
    "nl": ("Spelregels", "Spelen", "Taal"),
    "el": ("Κανόνες", "Παίξε", "Γλώσσα"),
    "da": ("Regler", "Spil", "Sprog"),
}


def language(query: str | None, accept: str | None) -> str:
    """The page's language: `query` if it is one of LANGUAGES, else the best of Accept-Language, else English."""
    if query in LANGUAGES:
        return str(query)
    best, best_q = "en", 0.0
    for part in (accept or "")[:500].split(",")[:20]:
        tag, _, params = part.strip().partition(";")
        q = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                q = float(params[2:])
            except ValueError:
                continue
        primary = tag.strip().lower().split("-")[0]
        if primary in LANGUAGES and q > best_q and q > 0:
            best, best_q = primary, q
    return best


def _page(lang: str, title: str, body: str, path: str) -> str:
    switch = " · ".join(
        f'<a href="{html.escape(path)}?lang={code}" hreflang="{code}" lang="{code}">{html.escape(name)}</a>'
        for code, name in LANGUAGES.items()
    )
    rules, play, lang_word = _UI.get(lang, _UI["en"])
    return (
        f'<!doctype html>\n<html lang="{html.escape(lang)}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title>"
        f'<link rel="stylesheet" href="/static/app.css">'
        f'<link rel="icon" href="/static/favicon.svg" type="image/svg+xml"></head><body>'
        f'<header><a href="/" class="brand">noughts</a> <a href="/">{html.escape(play)}</a> '
        f'<a href="/rules?lang={lang}">{html.escape(rules)}</a>'
        f'<nav class="languages" aria-label="{html.escape(lang_word)}">{switch}</nav></header>'
        f"<main>{body}</main></body></html>\n"
    )


def rules_page(game: str, lang: str) -> str:
    title, paragraphs = TEXTS[lang][game]
    body = f"<h1>{html.escape(title)}</h1>" + "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    return _page(lang, title, f'<article class="rules">{body}</article>', f"/rules/{game}")


def index_page(lang: str) -> str:
    rules = _UI[lang][0]
    items = "".join(
        f'<li><a href="/rules/{game}?lang={lang}">{html.escape(TEXTS[lang][game][0])}</a></li>' for game in GAMES
    )
    return _page(lang, rules, f"<h1>{html.escape(rules)}</h1><ul>{items}</ul>", "/rules")


def not_found_page() -> str:
    return _page("en", "Not found", "<h1>Not found</h1><p>There is nothing at this address.</p>", "/rules")
