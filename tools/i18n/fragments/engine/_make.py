"""Writes the engine area's fragments (de, fr, es, it, nl) from the table below.

Run: python tools/i18n/fragments/engine/_make.py (the lead merges the .po files)."""

from __future__ import annotations

import io
import re
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

LANGS = ("de", "fr", "es", "it", "nl")
HERE = Path(__file__).resolve().parent

# (context, msgid, plural or None, {lang: msgstr or (one, many)})
S = str
E: list[tuple[str | None, str, str | None, tuple[object, ...]]] = []


def add(msgid: str, de: object, fr: object, es: object, it: object, nl: object, *,
        ctx: str | None = None, plural: str | None = None) -> None:
    E.append((ctx, msgid, plural, (de, fr, es, it, nl)))


add("seat %(number)s", "Platz %(number)s", "place %(number)s", "asiento %(number)s",
    "posto %(number)s", "plaats %(number)s")
add("clubs", "Kreuz", "trèfle", "tréboles", "fiori", "klaveren", ctx="suit")
add("diamonds", "Karo", "carreau", "diamantes", "quadri", "ruiten", ctx="suit")
add("hearts", "Herz", "cœur", "corazones", "cuori", "harten", ctx="suit")
add("spades", "Pik", "pique", "picas", "picche", "schoppen", ctx="suit")
add("A stored game record could not be read (%(code)s).",
    "Ein gespeicherter Spielverlauf konnte nicht gelesen werden (%(code)s).",
    "Un enregistrement de la partie n'a pas pu être lu (%(code)s).",
    "No se pudo leer un registro guardado de la partida (%(code)s).",
    "Non è stato possibile leggere un registro salvato della partita (%(code)s).",
    "Een opgeslagen spelverloop kon niet worden gelezen (%(code)s).")
add("%(reason)s You can play %(cards)s.",
    "%(reason)s Du kannst %(cards)s spielen.",
    "%(reason)s Vous pouvez jouer %(cards)s.",
    "%(reason)s Puedes jugar %(cards)s.",
    "%(reason)s Puoi giocare %(cards)s.",
    "%(reason)s Je kunt %(cards)s spelen.")
add("That move isn't possible now (%(code)s).",
    "Dieser Zug ist jetzt nicht möglich (%(code)s).",
    "Ce coup n'est pas possible maintenant (%(code)s).",
    "Esa jugada no es posible ahora (%(code)s).",
    "Questa mossa non è possibile adesso (%(code)s).",
    "Die zet kan nu niet (%(code)s).")
add("Pass %(num)d card to %(name)s (%(direction)s).",
    ("Gib %(num)d Karte an %(name)s weiter (%(direction)s).",
     "Gib %(num)d Karten an %(name)s weiter (%(direction)s)."),
    ("Passez %(num)d carte à %(name)s (%(direction)s).",
     "Passez %(num)d cartes à %(name)s (%(direction)s)."),
    ("Pasa %(num)d carta a %(name)s (%(direction)s).",
     "Pasa %(num)d cartas a %(name)s (%(direction)s)."),
    ("Passa %(num)d carta a %(name)s (%(direction)s).",
     "Passa %(num)d carte a %(name)s (%(direction)s)."),
    ("Geef %(num)d kaart door aan %(name)s (%(direction)s).",
     "Geef %(num)d kaarten door aan %(name)s (%(direction)s)."),
    plural="Pass %(num)d cards to %(name)s (%(direction)s).")
add("It's your turn to play: you can play %(cards)s.",
    "Du bist dran: du kannst %(cards)s spielen.",
    "À vous de jouer : vous pouvez jouer %(cards)s.",
    "Te toca jugar: puedes jugar %(cards)s.",
    "Tocca a te giocare: puoi giocare %(cards)s.",
    "Jij bent aan de beurt: je kunt %(cards)s spelen.")
add("It's your turn to bid for the suit to avoid: %(num)d chip or more, or pass.",
    ("Du bist mit Bieten dran für die zu meidende Farbe: %(num)d Chip oder mehr, oder passe.",
     "Du bist mit Bieten dran für die zu meidende Farbe: %(num)d Chips oder mehr, oder passe."),
    ("À vous d'enchérir pour la couleur à éviter : %(num)d jeton ou plus, ou passez.",
     "À vous d'enchérir pour la couleur à éviter : %(num)d jetons ou plus, ou passez."),
    ("Te toca pujar por el palo a evitar: %(num)d ficha o más, o pasa.",
     "Te toca pujar por el palo a evitar: %(num)d fichas o más, o pasa."),
    ("Tocca a te fare un'offerta per il seme da evitare: %(num)d gettone o più, oppure passa.",
     "Tocca a te fare un'offerta per il seme da evitare: %(num)d gettoni o più, oppure passa."),
    ("Jij mag bieden voor de kleur die je moet vermijden: %(num)d fiche of meer, of pas.",
     "Jij mag bieden voor de kleur die je moet vermijden: %(num)d fiches of meer, of pas."),
    plural="It's your turn to bid for the suit to avoid: %(num)d chips or more, or pass.")
add("You won the bidding: name the suit to avoid.",
    "Du hast die Versteigerung gewonnen: nenne die zu meidende Farbe.",
    "Vous avez remporté les enchères : nommez la couleur à éviter.",
    "Has ganado la subasta: nombra el palo a evitar.",
    "Hai vinto l'asta: scegli il seme da evitare.",
    "Je hebt het bieden gewonnen: noem de kleur die vermeden moet worden.")
add("You shot the moon: choose to go down or to put everyone else up.",
    "Du hast einen Durchmarsch gemacht: wähle, ob du Punkte abziehst oder alle anderen "
    "Punkte bekommen.",
    "Vous avez fait le grand chelem : choisissez de baisser votre score ou d'augmenter celui "
    "de tous les autres.",
    "Has tirado a la luna: elige bajar tu puntuación o subir la de todos los demás.",
    "Hai fatto cappotto: scegli se scendere tu o far salire tutti gli altri.",
    "Je hebt de maan geschoten: kies of jij omlaag gaat of alle anderen omhoog.")
for variant, de, fr, es, it, nl in (
        ("Domino Hearts", "Domino-Hearts", "au Hearts Domino", "en el Corazones Dominó",
         "nella Peppa Domino", "bij Domino-hartenjagen"),
        ("Cancellation Hearts", "Cancellation-Hearts", "au Hearts Annulation",
         "en el Corazones de Cancelación", "nella Peppa ad annullamento",
         "bij Cancellation-hartenjagen"),
        ("Auction Hearts", "Auktions-Hearts", "au Hearts aux enchères",
         "en el Corazones de Subasta", "nella Peppa all'asta", "bij Veiling-hartenjagen")):
    add(f"Claims aren't part of {variant} here: please play on.",
        f"Ansagen gibt es bei {de} hier nicht: bitte spiel weiter.",
        f"Les annonces n'existent pas {fr} ici : continuez à jouer.",
        f"Las reclamaciones no forman parte {es.replace('en el', 'del')} aquí: sigue jugando.",
        f"Le dichiarazioni non fanno parte {it.replace('nella', 'della')} qui: continua a giocare.",
        f"Claims horen hier niet {nl}: speel gewoon door.")
    add(f"Nobody passes cards in {variant}.",
        f"Bei {de} werden keine Karten weitergegeben.",
        f"Personne ne passe de cartes {fr}.",
        f"Nadie pasa cartas {es}.",
        f"Nessuno passa carte {it}.",
        f"Niemand geeft kaarten door {nl}.")
add("Claims aren't part of this game: please play on.",
    "Ansagen gibt es in dieser Partie nicht: bitte spiel weiter.",
    "Les annonces n'existent pas dans cette partie : continuez à jouer.",
    "Las reclamaciones no forman parte de esta partida: sigue jugando.",
    "Le dichiarazioni non fanno parte di questa partita: continua a giocare.",
    "Claims horen niet bij dit spel: speel gewoon door.")
add("Nobody passes cards in this game.",
    "In dieser Partie werden keine Karten weitergegeben.",
    "Personne ne passe de cartes dans cette partie.",
    "Nadie pasa cartas en esta partida.",
    "Nessuno passa carte in questa partita.",
    "In dit spel geeft niemand kaarten door.")
add("Pass exactly %(count)s card; you named %(named)d: %(cards)s.",
    ("Gib genau %(count)s Karte weiter; du hast %(named)d genannt: %(cards)s.",
     "Gib genau %(count)s Karten weiter; du hast %(named)d genannt: %(cards)s."),
    ("Passez exactement %(count)s carte ; vous en avez nommé %(named)d : %(cards)s.",
     "Passez exactement %(count)s cartes ; vous en avez nommé %(named)d : %(cards)s."),
    ("Pasa exactamente %(count)s carta; has nombrado %(named)d: %(cards)s.",
     "Pasa exactamente %(count)s cartas; has nombrado %(named)d: %(cards)s."),
    ("Passa esattamente %(count)s carta; ne hai indicate %(named)d: %(cards)s.",
     "Passa esattamente %(count)s carte; ne hai indicate %(named)d: %(cards)s."),
    ("Geef precies %(count)s kaart door; je noemde er %(named)d: %(cards)s.",
     "Geef precies %(count)s kaarten door; je noemde er %(named)d: %(cards)s."),
    plural="Pass exactly %(count)s cards; you named %(named)d: %(cards)s.")
add("Pass exactly %(count)s card; you named 0.",
    ("Gib genau %(count)s Karte weiter; du hast keine genannt.",
     "Gib genau %(count)s Karten weiter; du hast keine genannt."),
    ("Passez exactement %(count)s carte ; vous n'en avez nommé aucune.",
     "Passez exactement %(count)s cartes ; vous n'en avez nommé aucune."),
    ("Pasa exactamente %(count)s carta; no has nombrado ninguna.",
     "Pasa exactamente %(count)s cartas; no has nombrado ninguna."),
    ("Passa esattamente %(count)s carta; non ne hai indicata nessuna.",
     "Passa esattamente %(count)s carte; non ne hai indicata nessuna."),
    ("Geef precies %(count)s kaart door; je noemde er geen.",
     "Geef precies %(count)s kaarten door; je noemde er geen."),
    plural="Pass exactly %(count)s cards; you named 0.")
add("one", "eine", "une", "una", "una", "één")
add("two", "zwei", "deux", "dos", "due", "twee")
add("three", "drei", "trois", "tres", "tre", "drie")
add("four", "vier", "quatre", "cuatro", "quattro", "vier")
add("You have already agreed to end the game; we're waiting for %(names)s to agree.",
    "Du hast dem Beenden der Partie schon zugestimmt; wir warten noch auf die Zustimmung von "
    "%(names)s.",
    "Vous avez déjà accepté de terminer la partie ; nous attendons l'accord de %(names)s.",
    "Ya has aceptado terminar la partida; esperamos a que %(names)s también acepten.",
    "Hai già accettato di chiudere la partita; aspettiamo che accetti anche %(names)s.",
    "Je hebt al ingestemd met het beëindigen van het spel; we wachten tot %(names)s ook "
    "instemmen.")
add("You have already agreed to end the game.",
    "Du hast dem Beenden der Partie schon zugestimmt.",
    "Vous avez déjà accepté de terminer la partie.",
    "Ya has aceptado terminar la partida.",
    "Hai già accettato di chiudere la partita.",
    "Je hebt al ingestemd met het beëindigen van het spel.")
add("%(leader)s already bid %(num)d: bid more than %(num)d chip, or pass.",
    ("%(leader)s hat schon %(num)d geboten: biete mehr als %(num)d Chip, oder passe.",
     "%(leader)s hat schon %(num)d geboten: biete mehr als %(num)d Chips, oder passe."),
    ("%(leader)s a déjà enchéri %(num)d : enchérissez plus de %(num)d jeton, ou passez.",
     "%(leader)s a déjà enchéri %(num)d : enchérissez plus de %(num)d jetons, ou passez."),
    ("%(leader)s ya ha pujado %(num)d: puja más de %(num)d ficha, o pasa.",
     "%(leader)s ya ha pujado %(num)d: puja más de %(num)d fichas, o pasa."),
    ("%(leader)s ha già offerto %(num)d: offri più di %(num)d gettone, oppure passa.",
     "%(leader)s ha già offerto %(num)d: offri più di %(num)d gettoni, oppure passa."),
    ("%(leader)s heeft al %(num)d geboden: bied meer dan %(num)d fiche, of pas.",
     "%(leader)s heeft al %(num)d geboden: bied meer dan %(num)d fiches, of pas."),
    plural="%(leader)s already bid %(num)d: bid more than %(num)d chips, or pass.")
add("A bid must be more than %(num)d chip.",
    ("Ein Gebot muss höher als %(num)d Chip sein.", "Ein Gebot muss höher als %(num)d Chips sein."),
    ("Une enchère doit dépasser %(num)d jeton.", "Une enchère doit dépasser %(num)d jetons."),
    ("Una puja debe superar %(num)d ficha.", "Una puja debe superar %(num)d fichas."),
    ("Un'offerta deve superare %(num)d gettone.", "Un'offerta deve superare %(num)d gettoni."),
    ("Een bod moet hoger zijn dan %(num)d fiche.", "Een bod moet hoger zijn dan %(num)d fiches."),
    plural="A bid must be more than %(num)d chips.")
add("Only %(name)s, who won the bidding, names the suit.",
    "Nur %(name)s hat die Versteigerung gewonnen und nennt die Farbe.",
    "Seul %(name)s, qui a remporté les enchères, nomme la couleur.",
    "Solo %(name)s, que ganó la subasta, nombra el palo.",
    "Solo %(name)s, che ha vinto l'asta, sceglie il seme.",
    "Alleen %(name)s, die het bieden won, noemt de kleur.")
add("Only the winning bidder names the suit.",
    "Nur wer die Versteigerung gewonnen hat, nennt die Farbe.",
    "Seul le gagnant des enchères nomme la couleur.",
    "Solo quien ganó la subasta nombra el palo.",
    "Solo chi ha vinto l'asta sceglie il seme.",
    "Alleen wie het bieden won, noemt de kleur.")
add("It's not your turn: we're waiting for %(name)s to play.",
    "Du bist nicht dran: wir warten darauf, dass %(name)s spielt.",
    "Ce n'est pas votre tour : nous attendons que %(name)s joue.",
    "No es tu turno: esperamos a que juegue %(name)s.",
    "Non è il tuo turno: aspettiamo che giochi %(name)s.",
    "Je bent niet aan de beurt: we wachten tot %(name)s speelt.")
add("%(card)s can't be played now.",
    "%(card)s kann jetzt nicht gespielt werden.",
    "%(card)s ne peut pas être joué maintenant.",
    "%(card)s no se puede jugar ahora.",
    "%(card)s non si può giocare adesso.",
    "%(card)s kan nu niet gespeeld worden.")
add("You must follow suit: %(suit)s were led and you hold %(cards)s.",
    "Du musst Farbe bedienen: %(suit)s wurde ausgespielt und du hast %(cards)s.",
    "Vous devez fournir : on a entamé à %(suit)s et vous avez %(cards)s.",
    "Debes seguir el palo: se salió con %(suit)s y tienes %(cards)s.",
    "Devi rispondere al seme: è stato aperto %(suit)s e hai %(cards)s.",
    "Je moet kleur bekennen: er werd %(suit)s uitgekomen en je hebt %(cards)s.")
add("The first trick opens with %(card)s.",
    "Der erste Stich wird mit %(card)s eröffnet.",
    "Le premier pli s'entame avec %(card)s.",
    "La primera baza se abre con %(card)s.",
    "La prima presa si apre con %(card)s.",
    "De eerste slag begint met %(card)s.")
add("The first trick opens with a club.",
    "Der erste Stich wird mit einem Kreuz eröffnet.",
    "Le premier pli s'entame avec un trèfle.",
    "La primera baza se abre con un trébol.",
    "La prima presa si apre con una carta di fiori.",
    "De eerste slag begint met een klaveren.")
add("The forced-queen rule applies: the queen of spades can't win this trick, so you must "
    "play it now.",
    "Die Pflicht-Dame-Regel gilt: die Pik-Dame kann diesen Stich nicht gewinnen, also musst "
    "du sie jetzt spielen.",
    "La règle de la dame forcée s'applique : la dame de pique ne peut pas remporter ce pli, "
    "vous devez donc la jouer maintenant.",
    "Se aplica la regla de la reina forzada: la reina de picas no puede ganar esta baza, así "
    "que debes jugarla ahora.",
    "Vale la regola della donna obbligata: la donna di picche non può vincere questa presa, "
    "quindi devi giocarla adesso.",
    "De regel van de gedwongen vrouw geldt: de schoppenvrouw kan deze slag niet winnen, dus "
    "je moet haar nu spelen.")
add("The forced-queen rule applies: you can't follow suit, so you must discard the queen of "
    "spades now.",
    "Die Pflicht-Dame-Regel gilt: du kannst nicht bedienen, also musst du jetzt die Pik-Dame "
    "abwerfen.",
    "La règle de la dame forcée s'applique : vous ne pouvez pas fournir, vous devez donc "
    "défausser la dame de pique maintenant.",
    "Se aplica la regla de la reina forzada: no puedes seguir el palo, así que debes "
    "descartar la reina de picas ahora.",
    "Vale la regola della donna obbligata: non puoi rispondere al seme, quindi devi scartare "
    "la donna di picche adesso.",
    "De regel van de gedwongen vrouw geldt: je kunt geen kleur bekennen, dus je moet nu de "
    "schoppenvrouw afgooien.")
add("No points on the first trick: hearts and the queen of spades must wait.",
    "Keine Punkte im ersten Stich: Herz und die Pik-Dame müssen warten.",
    "Pas de points au premier pli : les cœurs et la dame de pique doivent attendre.",
    "Sin puntos en la primera baza: los corazones y la reina de picas deben esperar.",
    "Niente punti nella prima presa: i cuori e la donna di picche devono aspettare.",
    "Geen punten in de eerste slag: harten en de schoppenvrouw moeten wachten.")
add("Hearts aren't broken and you hold only hearts and the queen of spades, so you must lead "
    "the queen.",
    "Herz ist nicht gebrochen und du hast nur Herz und die Pik-Dame, also musst du die Dame "
    "ausspielen.",
    "Les cœurs ne sont pas ouverts et vous n'avez que des cœurs et la dame de pique : vous "
    "devez donc entamer la dame.",
    "Los corazones no están rotos y solo tienes corazones y la reina de picas, así que debes "
    "salir con la reina.",
    "I cuori non sono aperti e hai solo cuori e la donna di picche, quindi devi aprire con la "
    "donna.",
    "Harten zijn niet gebroken en je hebt alleen harten en de schoppenvrouw, dus je moet met "
    "de vrouw uitkomen.")
add("Hearts haven't been broken yet, so you can't lead a heart.",
    "Herz ist noch nicht gebrochen, also kannst du kein Herz ausspielen.",
    "Les cœurs ne sont pas encore ouverts : vous ne pouvez pas entamer à cœur.",
    "Los corazones aún no están rotos, así que no puedes salir con un corazón.",
    "I cuori non sono ancora aperti, quindi non puoi aprire con un cuori.",
    "Harten zijn nog niet gebroken, dus je kunt niet met harten uitkomen.")
add("No points on the first trick: %(suit)s, the suit to avoid, must wait.",
    "Keine Punkte im ersten Stich: %(suit)s, die zu meidende Farbe, muss warten.",
    "Pas de points au premier pli : %(suit)s, la couleur à éviter, doit attendre.",
    "Sin puntos en la primera baza: %(suit)s, el palo a evitar, debe esperar.",
    "Niente punti nella prima presa: %(suit)s, il seme da evitare, deve aspettare.",
    "Geen punten in de eerste slag: %(suit)s, de kleur die je vermijdt, moet wachten.")
add("%(suit)s, the suit to avoid, haven't been broken yet, so you can't lead them.",
    "%(suit)s, die zu meidende Farbe, ist noch nicht gebrochen, also kannst du sie nicht "
    "ausspielen.",
    "%(suit)s, la couleur à éviter, n'est pas encore ouvert : vous ne pouvez pas l'entamer.",
    "%(suit)s, el palo a evitar, aún no está roto, así que no puedes salir con él.",
    "%(suit)s, il seme da evitare, non è ancora aperto, quindi non puoi aprire con esso.",
    "%(suit)s, de kleur die je vermijdt, is nog niet gebroken, dus je kunt er niet mee "
    "uitkomen.")
add("I couldn't read “%(text)s” as a suit: write clubs, diamonds, hearts or spades (or C, D, "
    "H, S).",
    "Ich konnte „%(text)s“ nicht als Farbe lesen: schreib Kreuz, Karo, Herz oder Pik (oder C, "
    "D, H, S).",
    "Je n'ai pas pu lire « %(text)s » comme une couleur : écrivez trèfle, carreau, cœur ou "
    "pique (ou C, D, H, S).",
    "No pude leer «%(text)s» como un palo: escribe tréboles, diamantes, corazones o picas (o "
    "C, D, H, S).",
    "Non sono riuscito a leggere «%(text)s» come seme: scrivi fiori, quadri, cuori o picche "
    "(oppure C, D, H, S).",
    "Ik kon „%(text)s” niet als kleur lezen: schrijf klaveren, ruiten, harten of schoppen (of "
    "C, D, H, S).")
add("“%(text)s” has no suit: did you mean %(options)s?",
    "„%(text)s“ hat keine Farbe: meintest du %(options)s?",
    "« %(text)s » n'a pas de couleur : vouliez-vous dire %(options)s ?",
    "«%(text)s» no tiene palo: ¿querías decir %(options)s?",
    "«%(text)s» non ha un seme: intendevi %(options)s?",
    "„%(text)s” heeft geen kleur: bedoelde je %(options)s?")
add("“%(text)s” has no rank: name the card with its rank and suit, like QS or 10H.",
    "„%(text)s“ hat keinen Wert: nenne die Karte mit Wert und Farbe, etwa QS oder 10H.",
    "« %(text)s » n'a pas de valeur : nommez la carte par sa valeur et sa couleur, comme QS "
    "ou 10H.",
    "«%(text)s» no tiene valor: nombra la carta con su valor y su palo, como QS o 10H.",
    "«%(text)s» non ha un valore: indica la carta con valore e seme, come QS o 10H.",
    "„%(text)s” heeft geen waarde: noem de kaart met waarde en kleur, zoals QS of 10H.")
add("I couldn't read “%(text)s” as a card. Write the rank then the suit, like QS, 10H, 2C or "
    "“queen of spades”.",
    "Ich konnte „%(text)s“ nicht als Karte lesen. Schreib den Wert und dann die Farbe, etwa "
    "QS, 10H, 2C oder „Pik Dame“.",
    "Je n'ai pas pu lire « %(text)s » comme une carte. Écrivez la valeur puis la couleur, "
    "comme QS, 10H, 2C ou « dame de pique ».",
    "No pude leer «%(text)s» como una carta. Escribe el valor y luego el palo, como QS, 10H, "
    "2C o «reina de picas».",
    "Non sono riuscito a leggere «%(text)s» come carta. Scrivi il valore e poi il seme, come "
    "QS, 10H, 2C o «donna di picche».",
    "Ik kon „%(text)s” niet als kaart lezen. Schrijf de waarde en dan de kleur, zoals QS, "
    "10H, 2C of „schoppenvrouw”.")
add("It's not your turn to bid: we're waiting for %(name)s.",
    "Du bist nicht mit Bieten dran: wir warten auf %(name)s.",
    "Ce n'est pas à vous d'enchérir : nous attendons %(name)s.",
    "No es tu turno de pujar: esperamos a %(name)s.",
    "Non è il tuo turno di offrire: aspettiamo %(name)s.",
    "Je bent niet aan de beurt om te bieden: we wachten op %(name)s.")
add("It's not your turn to draw.",
    "Du bist nicht mit Ziehen dran.",
    "Ce n'est pas à vous de piocher.",
    "No es tu turno de robar.",
    "Non è il tuo turno di pescare.",
    "Je bent niet aan de beurt om te trekken.")
add("You've passed your cards; we're waiting for %(names)s to pass.",
    "Du hast deine Karten weitergegeben; wir warten darauf, dass %(names)s weitergeben.",
    "Vous avez passé vos cartes ; nous attendons que %(names)s passent les leurs.",
    "Ya has pasado tus cartas; esperamos a que %(names)s pasen.",
    "Hai passato le tue carte; aspettiamo che %(names)s passino.",
    "Je hebt je kaarten doorgegeven; we wachten tot %(names)s doorgeven.")
add("First pass %(num)d card to %(name)s, e.g. “pass 2C 3D AH”.",
    ("Gib zuerst %(num)d Karte an %(name)s weiter, z. B. „pass 2C 3D AH“.",
     "Gib zuerst %(num)d Karten an %(name)s weiter, z. B. „pass 2C 3D AH“."),
    ("Passez d'abord %(num)d carte à %(name)s, par ex. « pass 2C 3D AH ».",
     "Passez d'abord %(num)d cartes à %(name)s, par ex. « pass 2C 3D AH »."),
    ("Primero pasa %(num)d carta a %(name)s, p. ej. «pass 2C 3D AH».",
     "Primero pasa %(num)d cartas a %(name)s, p. ej. «pass 2C 3D AH»."),
    ("Prima passa %(num)d carta a %(name)s, ad es. «pass 2C 3D AH».",
     "Prima passa %(num)d carte a %(name)s, ad es. «pass 2C 3D AH»."),
    ("Geef eerst %(num)d kaart door aan %(name)s, bijv. „pass 2C 3D AH”.",
     "Geef eerst %(num)d kaarten door aan %(name)s, bijv. „pass 2C 3D AH”."),
    plural="First pass %(num)d cards to %(name)s, e.g. “pass 2C 3D AH”.")
add("We're waiting for %(names)s to pass.",
    "Wir warten darauf, dass %(names)s weitergeben.",
    "Nous attendons que %(names)s passent leurs cartes.",
    "Esperamos a que %(names)s pasen.",
    "Aspettiamo che %(names)s passino.",
    "We wachten tot %(names)s doorgeven.")
add("We're waiting for %(name)s to play.",
    "Wir warten darauf, dass %(name)s spielt.",
    "Nous attendons que %(name)s joue.",
    "Esperamos a que juegue %(name)s.",
    "Aspettiamo che giochi %(name)s.",
    "We wachten tot %(name)s speelt.")
add("This game is over.", "Diese Partie ist beendet.", "Cette partie est terminée.",
    "Esta partida ha terminado.", "Questa partita è finita.", "Dit spel is afgelopen.")
add("We're waiting for %(name)s to choose how to score the moon.",
    "Wir warten darauf, dass %(name)s wählt, wie der Durchmarsch gewertet wird.",
    "Nous attendons que %(name)s choisisse comment compter le grand chelem.",
    "Esperamos a que %(name)s elija cómo puntuar la luna.",
    "Aspettiamo che %(name)s scelga come contare il cappotto.",
    "We wachten tot %(name)s kiest hoe de maan telt.")
add("The next hand hasn't been dealt yet.",
    "Die nächste Runde ist noch nicht gegeben.",
    "La prochaine donne n'a pas encore été distribuée.",
    "La próxima mano aún no se ha repartido.",
    "La prossima mano non è ancora stata distribuita.",
    "De volgende ronde is nog niet gedeeld.")
add("We're bidding for the suit to avoid: it's %(name)s's turn to bid (a number of chips, or "
    "pass).",
    "Wir bieten um die zu meidende Farbe: %(name)s ist mit Bieten dran (eine Anzahl Chips, "
    "oder passen).",
    "Les enchères pour la couleur à éviter sont en cours : c'est à %(name)s d'enchérir (un "
    "nombre de jetons, ou passer).",
    "Estamos pujando por el palo a evitar: le toca pujar a %(name)s (un número de fichas, o "
    "pasar).",
    "Stiamo facendo offerte per il seme da evitare: tocca a %(name)s offrire (un numero di "
    "gettoni, oppure passare).",
    "We bieden voor de kleur die vermeden moet worden: %(name)s is aan de beurt om te bieden "
    "(een aantal fiches, of passen).")
add("We're waiting for %(name)s to name the suit to avoid.",
    "Wir warten darauf, dass %(name)s die zu meidende Farbe nennt.",
    "Nous attendons que %(name)s nomme la couleur à éviter.",
    "Esperamos a que %(name)s nombre el palo a evitar.",
    "Aspettiamo che %(name)s scelga il seme da evitare.",
    "We wachten tot %(name)s de kleur noemt die vermeden moet worden.")
add("%(name)s can't follow suit and is drawing from the stock; play goes on after the draw.",
    "%(name)s kann nicht bedienen und zieht vom Stapel; danach geht das Spiel weiter.",
    "%(name)s ne peut pas fournir et pioche dans le talon ; le jeu reprend après la pioche.",
    "%(name)s no puede seguir el palo y roba del mazo; el juego sigue después del robo.",
    "%(name)s non può rispondere al seme e pesca dal tallone; il gioco riprende dopo.",
    "%(name)s kan geen kleur bekennen en trekt van de stapel; daarna gaat het spel verder.")
add("The bidding is over: it's time to play.",
    "Die Versteigerung ist vorbei: jetzt wird gespielt.",
    "Les enchères sont terminées : place au jeu.",
    "La subasta ha terminado: es hora de jugar.",
    "L'asta è finita: è ora di giocare.",
    "Het bieden is voorbij: tijd om te spelen.")
add("Passing is over for this hand: it's time to play.",
    "Das Weitergeben ist für diese Runde vorbei: jetzt wird gespielt.",
    "Le passage des cartes est terminé pour cette donne : place au jeu.",
    "El pase de cartas ha terminado en esta mano: es hora de jugar.",
    "Il passaggio delle carte è finito per questa mano: è ora di giocare.",
    "Het doorgeven is voorbij voor deze ronde: tijd om te spelen.")
add("There's no pass this hand (a hold hand): play your cards.",
    "In dieser Runde wird nicht weitergegeben (eine Halterunde): spiel deine Karten.",
    "Pas de passage à cette donne (donne sans passe) : jouez vos cartes.",
    "En esta mano no se pasan cartas (mano sin pase): juega tus cartas.",
    "In questa mano non si passano carte (mano senza passaggio): gioca le tue carte.",
    "Deze ronde wordt er niet doorgegeven (een houdronde): speel je kaarten.")
add("You already passed %(cards)s to %(name)s.",
    "Du hast %(cards)s schon an %(name)s weitergegeben.",
    "Vous avez déjà passé %(cards)s à %(name)s.",
    "Ya pasaste %(cards)s a %(name)s.",
    "Hai già passato %(cards)s a %(name)s.",
    "Je hebt %(cards)s al aan %(name)s doorgegeven.")
add("You have already passed your cards for this hand.",
    "Du hast deine Karten für diese Runde schon weitergegeben.",
    "Vous avez déjà passé vos cartes pour cette donne.",
    "Ya has pasado tus cartas en esta mano.",
    "Hai già passato le tue carte per questa mano.",
    "Je hebt je kaarten voor deze ronde al doorgegeven.")
add("You named %(cards)s more than once.",
    "Du hast %(cards)s mehr als einmal genannt.",
    "Vous avez nommé %(cards)s plus d'une fois.",
    "Has nombrado %(cards)s más de una vez.",
    "Hai indicato %(cards)s più di una volta.",
    "Je noemde %(cards)s meer dan eens.")
add("Pass exactly %(num)d card from your own hand.",
    ("Gib genau %(num)d Karte aus deinem eigenen Blatt weiter.",
     "Gib genau %(num)d Karten aus deinem eigenen Blatt weiter."),
    ("Passez exactement %(num)d carte de votre propre main.",
     "Passez exactement %(num)d cartes de votre propre main."),
    ("Pasa exactamente %(num)d carta de tu propia mano.",
     "Pasa exactamente %(num)d cartas de tu propia mano."),
    ("Passa esattamente %(num)d carta dalla tua mano.",
     "Passa esattamente %(num)d carte dalla tua mano."),
    ("Geef precies %(num)d kaart uit je eigen hand door.",
     "Geef precies %(num)d kaarten uit je eigen hand door."),
    plural="Pass exactly %(num)d cards from your own hand.")
add("You don't hold %(cards)s. Your hand: %(hand)s.",
    "Du hast %(cards)s nicht. Deine Karten: %(hand)s.",
    "Vous n'avez pas %(cards)s. Votre main : %(hand)s.",
    "No tienes %(cards)s. Tu mano: %(hand)s.",
    "Non hai %(cards)s. La tua mano: %(hand)s.",
    "Je hebt %(cards)s niet. Je hand: %(hand)s.")
add("It isn't time to play a card.",
    "Jetzt wird keine Karte gespielt.",
    "Ce n'est pas le moment de jouer une carte.",
    "No es momento de jugar una carta.",
    "Non è il momento di giocare una carta.",
    "Het is geen tijd om een kaart te spelen.")
add("It isn't this seat's move.",
    "Dieser Platz ist nicht am Zug.",
    "Ce n'est pas au tour de cette place.",
    "No es el turno de este asiento.",
    "Non è il turno di questo posto.",
    "Deze plaats is niet aan de beurt.")
add("You can only claim the rest of the tricks during play.",
    "Die restlichen Stiche kannst du nur während des Spiels ansagen.",
    "Vous ne pouvez annoncer les plis restants que pendant le jeu.",
    "Solo puedes reclamar el resto de las bazas durante el juego.",
    "Puoi dichiarare le prese rimanenti solo durante il gioco.",
    "Je kunt de overige slagen alleen tijdens het spel claimen.")
add("Your claim can't be checked quickly this early in the hand; please play on and claim "
    "again later.",
    "Deine Ansage lässt sich so früh in der Runde nicht schnell prüfen; bitte spiel weiter "
    "und sag später noch einmal an.",
    "Votre annonce ne peut pas être vérifiée rapidement si tôt dans la donne ; continuez à "
    "jouer et annoncez de nouveau plus tard.",
    "Tu reclamación no se puede comprobar rápido tan pronto en la mano; sigue jugando y "
    "reclama de nuevo más tarde.",
    "La tua dichiarazione non si può verificare in fretta così presto nella mano; continua a "
    "giocare e dichiara di nuovo più tardi.",
    "Je claim kan zo vroeg in de ronde niet snel worden gecontroleerd; speel door en claim "
    "later opnieuw.")
add("Your claim was refused: another player could still win a trick against your cards, so "
    "play goes on.",
    "Deine Ansage wurde abgelehnt: ein anderer Spieler könnte noch einen Stich gegen deine "
    "Karten gewinnen, also geht das Spiel weiter.",
    "Votre annonce est refusée : un autre joueur pourrait encore remporter un pli contre vos "
    "cartes, le jeu continue donc.",
    "Tu reclamación fue rechazada: otro jugador aún podría ganar una baza contra tus cartas, "
    "así que el juego sigue.",
    "La tua dichiarazione è stata rifiutata: un altro giocatore potrebbe ancora vincere una "
    "presa contro le tue carte, quindi il gioco continua.",
    "Je claim is geweigerd: een andere speler kan nog een slag winnen tegen jouw kaarten, dus "
    "het spel gaat door.")
add("There is nothing left to claim.",
    "Es gibt nichts mehr anzusagen.",
    "Il n'y a plus rien à annoncer.",
    "No queda nada que reclamar.",
    "Non c'è più niente da dichiarare.",
    "Er valt niets meer te claimen.")
add("A false claim carries no penalty in this game's rules.",
    "Eine falsche Ansage kostet nach den Regeln dieser Partie nichts.",
    "Une annonce fausse n'est pas pénalisée dans les règles de cette partie.",
    "Una reclamación falsa no tiene penalización en las reglas de esta partida.",
    "Una dichiarazione falsa non ha penalità nelle regole di questa partita.",
    "Een onjuiste claim kost niets volgens de regels van dit spel.")
add("There's no moon shot to score right now.",
    "Gerade ist kein Durchmarsch zu werten.",
    "Il n'y a pas de grand chelem à compter en ce moment.",
    "Ahora no hay ninguna luna que puntuar.",
    "Adesso non c'è nessun cappotto da contare.",
    "Er is nu geen maan om te tellen.")
add("Only the player who shot the moon chooses how it scores.",
    "Nur wer den Durchmarsch gemacht hat, wählt, wie er gewertet wird.",
    "Seul le joueur qui a fait le grand chelem choisit comment il compte.",
    "Solo quien tiró a la luna elige cómo puntúa.",
    "Solo chi ha fatto cappotto sceglie come contarlo.",
    "Alleen wie de maan schoot, kiest hoe die telt.")
add("There is no seat %(number)s at this table.",
    "An diesem Tisch gibt es keinen Platz %(number)s.",
    "Il n'y a pas de place %(number)s à cette table.",
    "No hay asiento %(number)s en esta mesa.",
    "Non c'è il posto %(number)s a questo tavolo.",
    "Er is geen plaats %(number)s aan deze tafel.")
add("No vote to end the game is open: play goes on.",
    "Es läuft keine Abstimmung über das Beenden der Partie: das Spiel geht weiter.",
    "Aucun vote pour terminer la partie n'est ouvert : le jeu continue.",
    "No hay ninguna votación abierta para terminar la partida: el juego sigue.",
    "Non c'è nessuna votazione aperta per chiudere la partita: il gioco continua.",
    "Er loopt geen stemming om het spel te beëindigen: het spel gaat door.")
add("There's no bidding in this game.",
    "In dieser Partie wird nicht geboten.",
    "Il n'y a pas d'enchères dans cette partie.",
    "En esta partida no hay subasta.",
    "In questa partita non ci sono offerte.",
    "In dit spel wordt niet geboden.")
add("There's no bidding this deal: the pot carried over, so %(name)s names the suit again.",
    "In dieser Runde wird nicht geboten: der Pott wurde übertragen, also nennt %(name)s die "
    "Farbe erneut.",
    "Pas d'enchères à cette donne : le pot est reporté, donc %(name)s nomme de nouveau la "
    "couleur.",
    "No hay subasta en esta mano: el bote pasó a la siguiente, así que %(name)s vuelve a "
    "nombrar el palo.",
    "Nessuna offerta in questa mano: il piatto è stato riportato, quindi %(name)s sceglie di "
    "nuovo il seme.",
    "Deze ronde wordt niet geboden: de pot is doorgeschoven, dus %(name)s noemt opnieuw de "
    "kleur.")
add("The bidding is over for this deal.",
    "Die Versteigerung ist für diese Runde vorbei.",
    "Les enchères sont terminées pour cette donne.",
    "La subasta ha terminado en esta mano.",
    "L'asta è finita per questa mano.",
    "Het bieden is voorbij voor deze ronde.")
add("You've already bid this deal: everyone bids once.",
    "Du hast in dieser Runde schon geboten: jeder bietet einmal.",
    "Vous avez déjà enchéri à cette donne : chacun enchérit une fois.",
    "Ya has pujado en esta mano: cada uno puja una vez.",
    "Hai già fatto un'offerta in questa mano: ognuno offre una volta.",
    "Je hebt deze ronde al geboden: iedereen biedt één keer.")
add("A bid is a whole number of chips, at least 1; or pass.",
    "Ein Gebot ist eine ganze Zahl von Chips, mindestens 1; oder passe.",
    "Une enchère est un nombre entier de jetons, au moins 1 ; ou passez.",
    "Una puja es un número entero de fichas, al menos 1; o pasa.",
    "Un'offerta è un numero intero di gettoni, almeno 1; oppure passa.",
    "Een bod is een heel aantal fiches, minstens 1; of pas.")
add("Nobody names a suit in this game: hearts are the suit to avoid.",
    "In dieser Partie nennt niemand eine Farbe: Herz ist die zu meidende Farbe.",
    "Personne ne nomme de couleur dans cette partie : les cœurs sont la couleur à éviter.",
    "En esta partida nadie nombra un palo: los corazones son el palo a evitar.",
    "In questa partita nessuno sceglie un seme: i cuori sono il seme da evitare.",
    "In dit spel noemt niemand een kleur: harten is de kleur die je vermijdt.")
add("There's no suit to name now.",
    "Jetzt ist keine Farbe zu nennen.",
    "Il n'y a pas de couleur à nommer maintenant.",
    "Ahora no hay que nombrar ningún palo.",
    "Adesso non c'è nessun seme da scegliere.",
    "Er hoeft nu geen kleur genoemd te worden.")
add("The suit to avoid is already named: %(suit)s.",
    "Die zu meidende Farbe ist schon genannt: %(suit)s.",
    "La couleur à éviter est déjà nommée : %(suit)s.",
    "El palo a evitar ya está nombrado: %(suit)s.",
    "Il seme da evitare è già stato scelto: %(suit)s.",
    "De kleur die vermeden moet worden is al genoemd: %(suit)s.")
add("Nobody needs to draw from the stock now.",
    "Gerade muss niemand vom Stapel ziehen.",
    "Personne n'a besoin de piocher dans le talon maintenant.",
    "Ahora nadie tiene que robar del mazo.",
    "Adesso nessuno deve pescare dal tallone.",
    "Niemand hoeft nu van de stapel te trekken.")
add("Drawing until you can follow suit takes %(num)d card, not %(count)d.",
    ("Ziehen, bis du bedienen kannst, braucht %(num)d Karte, nicht %(count)d.",
     "Ziehen, bis du bedienen kannst, braucht %(num)d Karten, nicht %(count)d."),
    ("Piocher jusqu'à pouvoir fournir prend %(num)d carte, pas %(count)d.",
     "Piocher jusqu'à pouvoir fournir prend %(num)d cartes, pas %(count)d."),
    ("Robar hasta poder seguir el palo lleva %(num)d carta, no %(count)d.",
     "Robar hasta poder seguir el palo lleva %(num)d cartas, no %(count)d."),
    ("Pescare finché puoi rispondere al seme richiede %(num)d carta, non %(count)d.",
     "Pescare finché puoi rispondere al seme richiede %(num)d carte, non %(count)d."),
    ("Trekken tot je kleur kunt bekennen kost %(num)d kaart, niet %(count)d.",
     "Trekken tot je kleur kunt bekennen kost %(num)d kaarten, niet %(count)d."),
    plural="Drawing until you can follow suit takes %(num)d cards, not %(count)d.")
add("This game has already been created.",
    "Diese Partie wurde schon angelegt.",
    "Cette partie a déjà été créée.",
    "Esta partida ya se ha creado.",
    "Questa partita è già stata creata.",
    "Dit spel is al aangemaakt.")
add("The hand has already been dealt.",
    "Die Runde ist schon gegeben.",
    "La donne a déjà été distribuée.",
    "La mano ya se ha repartido.",
    "La mano è già stata distribuita.",
    "De ronde is al gedeeld.")
add("A deal must hold every card of the deck exactly once.",
    "Ein Geben muss jede Karte des Spiels genau einmal enthalten.",
    "Une distribution doit contenir chaque carte du jeu exactement une fois.",
    "Un reparto debe contener cada carta de la baraja exactamente una vez.",
    "Una distribuzione deve contenere ogni carta del mazzo esattamente una volta.",
    "Een deling moet elke kaart van het spel precies één keer bevatten.")
add("A %(event)s event has no place in this game's rules.",
    "Ein %(event)s-Ereignis passt nicht zu den Regeln dieser Partie.",
    "Un événement %(event)s n'a pas sa place dans les règles de cette partie.",
    "Un evento %(event)s no tiene cabida en las reglas de esta partida.",
    "Un evento %(event)s non ha posto nelle regole di questa partita.",
    "Een %(event)s-gebeurtenis past niet bij de regels van dit spel.")
add("The draw for first dealer needs one card per seat.",
    "Das Ziehen um den ersten Geber braucht eine Karte pro Platz.",
    "Le tirage du premier donneur demande une carte par place.",
    "El sorteo del primer repartidor necesita una carta por asiento.",
    "L'estrazione del primo mazziere richiede una carta per posto.",
    "Het trekken voor de eerste gever vraagt één kaart per plaats.")
add("The first dealer must be the seat that drew the highest card.",
    "Erster Geber muss der Platz sein, der die höchste Karte gezogen hat.",
    "Le premier donneur doit être la place qui a tiré la plus haute carte.",
    "El primer repartidor debe ser el asiento que sacó la carta más alta.",
    "Il primo mazziere deve essere il posto che ha pescato la carta più alta.",
    "De eerste gever moet de plaats zijn die de hoogste kaart trok.")
add("A game's log must start with its creation.",
    "Der Verlauf einer Partie muss mit ihrer Anlage beginnen.",
    "Le journal d'une partie doit commencer par sa création.",
    "El registro de una partida debe empezar con su creación.",
    "Il registro di una partita deve iniziare con la sua creazione.",
    "Het verloop van een spel moet beginnen met het aanmaken ervan.")
add("no pass (hold)", "kein Weitergeben (halten)", "pas de passe (on garde)",
    "sin pase (se guardan)", "nessun passaggio (si tengono)", "niet doorgeven (houden)")
add("across", "gegenüber", "en face", "enfrente", "di fronte", "tegenover")
add("left", "links", "à gauche", "a la izquierda", "a sinistra", "links")
add("right", "rechts", "à droite", "a la derecha", "a destra", "rechts")
add("%(num)s to the left", "%(num)s nach links", "%(num)s à gauche", "%(num)s a la izquierda",
    "%(num)s a sinistra", "%(num)s naar links")
add("%(num)s to the right", "%(num)s nach rechts", "%(num)s à droite", "%(num)s a la derecha",
    "%(num)s a destra", "%(num)s naar rechts")

# pbem/present/review.py: why a card was costly (pbem.bots.explain's codes), after the card
add("into the %(card)s still out", "in das noch offene %(card)s", "sous le %(card)s encore dehors",
    "con el %(card)s aún fuera", "sotto il %(card)s ancora fuori",
    "onder de %(card)s die nog buiten is")
add("with the %(card)s still out", "mit der noch offenen %(card)s",
    "avec la %(card)s encore dehors", "con la %(card)s aún fuera",
    "con la %(card)s ancora fuori", "met de %(card)s nog buiten")
add("kept the Q♠ when it could go", "behielt die Q♠, als sie wegkonnte",
    "a gardé la Q♠ alors qu'elle pouvait partir", "se quedó la Q♠ cuando podía soltarla",
    "ha tenuto la Q♠ quando poteva scartarla", "hield de Q♠ toen die weg kon")
add("took a trick of %(num)d point",
    ("nahm einen Stich mit %(num)d Punkt", "nahm einen Stich mit %(num)d Punkten"),
    ("a pris un pli de %(num)d point", "a pris un pli de %(num)d points"),
    ("se llevó una baza de %(num)d punto", "se llevó una baza de %(num)d puntos"),
    ("ha preso una presa da %(num)d punto", "ha preso una presa da %(num)d punti"),
    ("nam een slag van %(num)d punt", "nam een slag van %(num)d punten"),
    plural="took a trick of %(num)d points")

# pbem/present/rules_words.py: the rules text, one item per fact of describe.rules_facts
add("Cancellation Hearts: two decks shuffled together. Two cards of the same rank in one trick "
    "cancel and neither can win it; a trick nobody can win goes to the winner of the next trick "
    "(the last one to its leader).",
    "Cancellation-Hearts: zwei Kartenspiele werden zusammengemischt. Zwei Karten gleichen Werts "
    "in einem Stich heben sich auf und keine kann ihn gewinnen; einen Stich, den niemand "
    "gewinnen kann, bekommt der Gewinner des nächsten Stichs (den letzten sein Ausspieler).",
    "Hearts Annulation : deux jeux mélangés ensemble. Deux cartes de même valeur dans un pli "
    "s'annulent et aucune ne peut le remporter ; un pli que personne ne peut remporter va au "
    "gagnant du pli suivant (le dernier à celui qui l'a entamé).",
    "Corazones de Cancelación: dos barajas mezcladas. Dos cartas del mismo valor en una baza se "
    "anulan y ninguna puede ganarla; una baza que nadie puede ganar se la lleva el ganador de "
    "la siguiente (la última, quien salió en ella).",
    "Peppa ad annullamento: due mazzi mescolati insieme. Due carte dello stesso valore nella "
    "stessa presa si annullano e nessuna delle due può vincerla; una presa che nessuno può "
    "vincere va a chi vince la presa successiva (l'ultima a chi l'ha aperta).",
    "Cancellation-hartenjagen: twee spellen door elkaar geschud. Twee kaarten van dezelfde "
    "waarde in één slag heffen elkaar op en geen van beide kan hem winnen; een slag die niemand "
    "kan winnen gaat naar de winnaar van de volgende slag (de laatste naar wie uitkwam).")
add("Cancellation Hearts: two decks shuffled together. Two identical cards in one trick cancel "
    "and neither can win it; a trick nobody can win goes to the winner of the next trick (the "
    "last one to its leader).",
    "Cancellation-Hearts: zwei Kartenspiele werden zusammengemischt. Zwei gleiche Karten in "
    "einem Stich heben sich auf und keine kann ihn gewinnen; einen Stich, den niemand gewinnen "
    "kann, bekommt der Gewinner des nächsten Stichs (den letzten sein Ausspieler).",
    "Hearts Annulation : deux jeux mélangés ensemble. Deux cartes identiques dans un pli "
    "s'annulent et aucune ne peut le remporter ; un pli que personne ne peut remporter va au "
    "gagnant du pli suivant (le dernier à celui qui l'a entamé).",
    "Corazones de Cancelación: dos barajas mezcladas. Dos cartas idénticas en una baza se "
    "anulan y ninguna puede ganarla; una baza que nadie puede ganar se la lleva el ganador de "
    "la siguiente (la última, quien salió en ella).",
    "Peppa ad annullamento: due mazzi mescolati insieme. Due carte identiche nella stessa presa "
    "si annullano e nessuna delle due può vincerla; una presa che nessuno può vincere va a chi "
    "vince la presa successiva (l'ultima a chi l'ha aperta).",
    "Cancellation-hartenjagen: twee spellen door elkaar geschud. Twee identieke kaarten in één "
    "slag heffen elkaar op en geen van beide kan hem winnen; een slag die niemand kan winnen "
    "gaat naar de winnaar van de volgende slag (de laatste naar wie uitkwam).")
add("Domino Hearts: six cards each, the rest is a stock. If you can't follow suit you draw from "
    "the stock until you can; once it is gone you may discard. You drop out when your hand is "
    "empty; the last player left takes the cards still in hand and the stock.",
    "Domino-Hearts: sechs Karten für jeden, der Rest ist der Stapel. Wer nicht bedienen kann, "
    "zieht vom Stapel, bis es geht; ist er leer, darf man abwerfen. Wer keine Karten mehr hat, "
    "scheidet aus; der letzte Spieler bekommt die restlichen Handkarten und den Stapel.",
    "Hearts Domino : six cartes chacun, le reste forme le talon. Si vous ne pouvez pas fournir, "
    "vous piochez dans le talon jusqu'à pouvoir le faire ; une fois le talon épuisé, vous "
    "pouvez défausser. Vous sortez quand votre main est vide ; le dernier joueur restant prend "
    "les cartes encore en main et le talon.",
    "Corazones Dominó: seis cartas para cada uno, el resto forma el mazo. Si no puedes seguir "
    "el palo, robas del mazo hasta que puedas; cuando se acaba, puedes descartarte. Sales del "
    "juego cuando tu mano queda vacía; el último jugador se lleva las cartas que quedan en mano "
    "y el mazo.",
    "Peppa Domino: sei carte a testa, il resto è il tallone. Se non puoi rispondere al seme "
    "peschi dal tallone finché puoi; quando è finito puoi scartare. Esci quando la tua mano è "
    "vuota; l'ultimo giocatore rimasto prende le carte ancora in mano e il tallone.",
    "Domino-hartenjagen: zes kaarten per speler, de rest is de stapel. Kun je geen kleur "
    "bekennen, dan trek je van de stapel tot het wel kan; is die op, dan mag je afgooien. Je "
    "ligt eruit als je hand leeg is; de laatste speler krijgt de kaarten die nog in de hand "
    "zijn en de stapel.")
add("Auction Hearts: after the deal everyone bids once, in turn, chips for naming the suit to "
    "avoid (more than the last bid, or pass; if all pass the dealer names it for nothing). The "
    "winner pays, names the suit and leads; that suit counts one point a card and must be "
    "broken before it is led.",
    "Auktions-Hearts: nach dem Geben bietet jeder einmal reihum Chips dafür, die zu meidende "
    "Farbe zu nennen (mehr als das letzte Gebot, oder passen; passen alle, nennt der Geber sie "
    "umsonst). Der Gewinner zahlt, nennt die Farbe und spielt aus; jede Karte dieser Farbe "
    "zählt einen Punkt, und sie muss gebrochen sein, bevor sie ausgespielt wird.",
    "Hearts aux enchères : après la donne, chacun enchérit une fois, à son tour, des jetons "
    "pour nommer la couleur à éviter (plus que la dernière enchère, ou passer ; si tous "
    "passent, le donneur la nomme gratuitement). Le gagnant paie, nomme la couleur et entame ; "
    "chaque carte de cette couleur compte un point et elle doit être ouverte avant d'être "
    "entamée.",
    "Corazones de Subasta: tras el reparto, cada uno puja una vez, por turno, fichas por "
    "nombrar el palo a evitar (más que la última puja, o pasar; si todos pasan, el repartidor "
    "lo nombra gratis). El ganador paga, nombra el palo y sale; cada carta de ese palo cuenta "
    "un punto y debe estar roto antes de salir con él.",
    "Peppa all'asta: dopo la distribuzione ognuno offre una volta, a turno, gettoni per "
    "scegliere il seme da evitare (più dell'ultima offerta, oppure passa; se passano tutti, il "
    "mazziere lo sceglie gratis). Il vincitore paga, sceglie il seme e apre; ogni carta di quel "
    "seme vale un punto e il seme deve essere aperto prima di poterlo giocare in apertura.",
    "Veiling-hartenjagen: na het delen biedt iedereen één keer, op zijn beurt, fiches om de "
    "kleur te noemen die vermeden moet worden (meer dan het laatste bod, of passen; als "
    "iedereen past, noemt de gever haar gratis). De winnaar betaalt, noemt de kleur en komt "
    "uit; elke kaart van die kleur telt één punt en de kleur moet gebroken zijn voor je ermee "
    "uitkomt.")
add("%(players)s players, %(hand)s cards each; %(num)d card forms a widow added to the first "
    "trick.",
    ("%(players)s Spieler, je %(hand)s Karten; %(num)d Karte bildet einen Skat, der zum ersten "
     "Stich kommt.",
     "%(players)s Spieler, je %(hand)s Karten; %(num)d Karten bilden einen Skat, der zum "
     "ersten Stich kommt."),
    ("%(players)s joueurs, %(hand)s cartes chacun ; %(num)d carte forme une veuve ajoutée au "
     "premier pli.",
     "%(players)s joueurs, %(hand)s cartes chacun ; %(num)d cartes forment une veuve ajoutée "
     "au premier pli."),
    ("%(players)s jugadores, %(hand)s cartas cada uno; %(num)d carta forma una viuda que se "
     "añade a la primera baza.",
     "%(players)s jugadores, %(hand)s cartas cada uno; %(num)d cartas forman una viuda que se "
     "añade a la primera baza."),
    ("%(players)s giocatori, %(hand)s carte a testa; %(num)d carta forma un monte aggiunto "
     "alla prima presa.",
     "%(players)s giocatori, %(hand)s carte a testa; %(num)d carte formano un monte aggiunto "
     "alla prima presa."),
    ("%(players)s spelers, %(hand)s kaarten elk; %(num)d kaart vormt een weduwe die bij de "
     "eerste slag komt.",
     "%(players)s spelers, %(hand)s kaarten elk; %(num)d kaarten vormen een weduwe die bij de "
     "eerste slag komt."),
    plural="%(players)s players, %(hand)s cards each; %(num)d cards form a widow added to the "
    "first trick.")
add("%(players)s players, %(hand)s cards each; a stock of %(stock)s.",
    "%(players)s Spieler, je %(hand)s Karten; ein Stapel von %(stock)s.",
    "%(players)s joueurs, %(hand)s cartes chacun ; un talon de %(stock)s.",
    "%(players)s jugadores, %(hand)s cartas cada uno; un mazo de %(stock)s.",
    "%(players)s giocatori, %(hand)s carte a testa; un tallone di %(stock)s.",
    "%(players)s spelers, %(hand)s kaarten elk; een stapel van %(stock)s.")
add("%(players)s players, %(hand)s cards each (%(cards)s taken out).",
    "%(players)s Spieler, je %(hand)s Karten (%(cards)s herausgenommen).",
    "%(players)s joueurs, %(hand)s cartes chacun (%(cards)s retirées).",
    "%(players)s jugadores, %(hand)s cartas cada uno (sin %(cards)s).",
    "%(players)s giocatori, %(hand)s carte a testa (%(cards)s tolte).",
    "%(players)s spelers, %(hand)s kaarten elk (%(cards)s eruit gehaald).")
for trick, de, fr, es, it, nl in (("first", "ersten", "premier", "primera", "prima", "eerste"),
                                  ("last", "letzten", "dernier", "última", "ultima", "laatste")):
    add(f"%(players)s players, %(hand)s cards each; %(num)d card forms a kitty for the {trick} "
        "trick's winner.",
        (f"%(players)s Spieler, je %(hand)s Karten; %(num)d Karte bildet einen Skat für den "
         f"Gewinner des {de} Stichs.",
         f"%(players)s Spieler, je %(hand)s Karten; %(num)d Karten bilden einen Skat für den "
         f"Gewinner des {de} Stichs."),
        (f"%(players)s joueurs, %(hand)s cartes chacun ; %(num)d carte forme un talon pour le "
         f"gagnant du {fr} pli.",
         f"%(players)s joueurs, %(hand)s cartes chacun ; %(num)d cartes forment un talon pour "
         f"le gagnant du {fr} pli."),
        (f"%(players)s jugadores, %(hand)s cartas cada uno; %(num)d carta forma un bote para el "
         f"ganador de la {es} baza.",
         f"%(players)s jugadores, %(hand)s cartas cada uno; %(num)d cartas forman un bote para "
         f"el ganador de la {es} baza."),
        (f"%(players)s giocatori, %(hand)s carte a testa; %(num)d carta forma un monte per chi "
         f"vince la {it} presa.",
         f"%(players)s giocatori, %(hand)s carte a testa; %(num)d carte formano un monte per "
         f"chi vince la {it} presa."),
        (f"%(players)s spelers, %(hand)s kaarten elk; %(num)d kaart vormt een pot voor de "
         f"winnaar van de {nl} slag.",
         f"%(players)s spelers, %(hand)s kaarten elk; %(num)d kaarten vormen een pot voor de "
         f"winnaar van de {nl} slag."),
        plural=f"%(players)s players, %(hand)s cards each; %(num)d cards form a kitty for the "
        f"{trick} trick's winner.")
add("%(players)s players, %(hand)s cards each.",
    "%(players)s Spieler, je %(hand)s Karten.",
    "%(players)s joueurs, %(hand)s cartes chacun.",
    "%(players)s jugadores, %(hand)s cartas cada uno.",
    "%(players)s giocatori, %(hand)s carte a testa.",
    "%(players)s spelers, %(hand)s kaarten elk.")
add("Pass %(num)d card before each hand: %(cycle)s, then again.",
    ("Gib vor jeder Runde %(num)d Karte weiter: %(cycle)s, dann von vorn.",
     "Gib vor jeder Runde %(num)d Karten weiter: %(cycle)s, dann von vorn."),
    ("Passez %(num)d carte avant chaque donne : %(cycle)s, puis on recommence.",
     "Passez %(num)d cartes avant chaque donne : %(cycle)s, puis on recommence."),
    ("Pasa %(num)d carta antes de cada mano: %(cycle)s, y vuelta a empezar.",
     "Pasa %(num)d cartas antes de cada mano: %(cycle)s, y vuelta a empezar."),
    ("Passa %(num)d carta prima di ogni mano: %(cycle)s, poi si ricomincia.",
     "Passa %(num)d carte prima di ogni mano: %(cycle)s, poi si ricomincia."),
    ("Geef voor elke ronde %(num)d kaart door: %(cycle)s, en dan opnieuw.",
     "Geef voor elke ronde %(num)d kaarten door: %(cycle)s, en dan opnieuw."),
    plural="Pass %(num)d cards before each hand: %(cycle)s, then again.")
add("The winning bidder leads any card to the first trick.",
    "Der Gewinner der Versteigerung spielt eine beliebige Karte zum ersten Stich aus.",
    "Le gagnant des enchères entame le premier pli avec la carte de son choix.",
    "El ganador de la subasta sale a la primera baza con cualquier carta.",
    "Chi vince l'asta apre la prima presa con una carta qualsiasi.",
    "De winnaar van het bieden komt in de eerste slag uit met een willekeurige kaart.")
add("The player left of the dealer leads any card to the first trick.",
    "Der Spieler links vom Geber spielt eine beliebige Karte zum ersten Stich aus.",
    "Le joueur à gauche du donneur entame le premier pli avec la carte de son choix.",
    "El jugador a la izquierda del repartidor sale a la primera baza con cualquier carta.",
    "Il giocatore alla sinistra del mazziere apre la prima presa con una carta qualsiasi.",
    "De speler links van de gever komt in de eerste slag uit met een willekeurige kaart.")
add("The holder of the lowest club leads a club to the first trick.",
    "Wer das niedrigste Kreuz hat, spielt zum ersten Stich ein Kreuz aus.",
    "Le détenteur du plus petit trèfle entame le premier pli à trèfle.",
    "Quien tiene el trébol más bajo sale a la primera baza con un trébol.",
    "Chi ha la carta di fiori più bassa apre la prima presa con una carta di fiori.",
    "Wie de laagste klaveren heeft, komt in de eerste slag uit met een klaveren.")
add("The holder of the lowest club (2C, or 3C when it is taken out) leads it.",
    "Wer das niedrigste Kreuz hat (2C, oder 3C, wenn es herausgenommen ist), spielt es aus.",
    "Le détenteur du plus petit trèfle (2C, ou 3C s'il est retiré) l'entame.",
    "Quien tiene el trébol más bajo (2C, o 3C si se ha quitado) sale con él.",
    "Chi ha la carta di fiori più bassa (2C, o 3C se è stata tolta) apre con quella.",
    "Wie de laagste klaveren heeft (2C, of 3C als die eruit is gehaald), komt ermee uit.")
add("Points may be played on the first trick.",
    "Im ersten Stich dürfen Punkte gespielt werden.",
    "On peut jouer des points au premier pli.",
    "Se pueden jugar puntos en la primera baza.",
    "Nella prima presa si possono giocare punti.",
    "In de eerste slag mogen punten gespeeld worden.")
add("No cards of the named suit on the first trick, unless you hold nothing else.",
    "Keine Karten der genannten Farbe im ersten Stich, außer du hast nichts anderes.",
    "Pas de carte de la couleur nommée au premier pli, sauf si vous n'avez rien d'autre.",
    "Ninguna carta del palo nombrado en la primera baza, salvo que no tengas otra cosa.",
    "Niente carte del seme scelto nella prima presa, a meno che tu non abbia altro.",
    "Geen kaarten van de genoemde kleur in de eerste slag, tenzij je niets anders hebt.")
add("No hearts (the queen of spades is free and may be played) on the first trick, unless you "
    "hold nothing else.",
    "Kein Herz im ersten Stich (die Pik-Dame ist frei und darf gespielt werden), außer du hast "
    "nichts anderes.",
    "Pas de cœur au premier pli (la dame de pique ne compte pas et peut être jouée), sauf si "
    "vous n'avez rien d'autre.",
    "Ningún corazón en la primera baza (la reina de picas no cuenta y se puede jugar), salvo "
    "que no tengas otra cosa.",
    "Niente cuori nella prima presa (la donna di picche non conta e si può giocare), a meno che "
    "tu non abbia altro.",
    "Geen harten in de eerste slag (de schoppenvrouw telt niet en mag gespeeld worden), tenzij "
    "je niets anders hebt.")
add("No hearts or queen of spades on the first trick, unless you hold nothing else.",
    "Kein Herz und keine Pik-Dame im ersten Stich, außer du hast nichts anderes.",
    "Ni cœur ni dame de pique au premier pli, sauf si vous n'avez rien d'autre.",
    "Ni corazones ni la reina de picas en la primera baza, salvo que no tengas otra cosa.",
    "Né cuori né donna di picche nella prima presa, a meno che tu non abbia altro.",
    "Geen harten of schoppenvrouw in de eerste slag, tenzij je niets anders hebt.")
add("Hearts may be led at any time.",
    "Herz darf jederzeit ausgespielt werden.",
    "On peut entamer à cœur à tout moment.",
    "Se puede salir con corazones en cualquier momento.",
    "Si può aprire con i cuori in qualsiasi momento.",
    "Met harten mag je altijd uitkomen.")
for breaker, de, fr, es, it, nl in (
        ("a heart or the queen of spades", "ein Herz oder die Pik-Dame",
         "un cœur ou la dame de pique", "un corazón o la reina de picas",
         "un cuori o la donna di picche", "een harten of de schoppenvrouw"),
        ("a heart", "ein Herz", "un cœur", "un corazón", "un cuori", "een harten")):
    add(f"Hearts can't be led until {breaker} has been discarded, that is played on another "
        "suit's lead (or you hold only hearts).",
        f"Herz darf erst ausgespielt werden, wenn {de} abgeworfen wurde, also auf eine andere "
        "ausgespielte Farbe (oder du hast nur Herz).",
        f"On ne peut pas entamer à cœur avant que {fr} ait été défaussé, c'est-à-dire joué sur "
        "une autre couleur entamée (ou si vous n'avez que des cœurs).",
        f"No se puede salir con corazones hasta que se haya descartado {es}, es decir, jugado "
        "sobre otro palo (o si solo tienes corazones).",
        f"Non si può aprire con i cuori finché non è stato scartato {it}, cioè giocato su "
        "un altro seme (o se hai solo cuori).",
        f"Je mag pas met harten uitkomen als {nl} is afgegooid, dat wil zeggen gespeeld op "
        "een andere uitgekomen kleur (of als je alleen harten hebt).")
    add(f"Hearts can't be led until {breaker} has been played (or you hold only hearts).",
        f"Herz darf erst ausgespielt werden, wenn {de} gespielt wurde (oder du hast nur Herz).",
        f"On ne peut pas entamer à cœur avant que {fr} ait été joué (ou si vous n'avez que "
        "des cœurs).",
        f"No se puede salir con corazones hasta que se haya jugado {es} (o si solo tienes "
        "corazones).",
        f"Non si può aprire con i cuori finché non è stato giocato {it} (o se hai solo cuori).",
        f"Je mag pas met harten uitkomen als {nl} is gespeeld (of als je alleen harten hebt).")
add("Holding only hearts and the queen of spades, you may lead a heart.",
    "Hast du nur Herz und die Pik-Dame, darfst du ein Herz ausspielen.",
    "Si vous n'avez que des cœurs et la dame de pique, vous pouvez entamer à cœur.",
    "Si solo tienes corazones y la reina de picas, puedes salir con un corazón.",
    "Se hai solo cuori e la donna di picche, puoi aprire con un cuori.",
    "Heb je alleen harten en de schoppenvrouw, dan mag je met harten uitkomen.")
add("The queen of spades must be played as soon as it safely can: discarded when you can't "
    "follow suit, and played under a higher spade.",
    "Die Pik-Dame muss gespielt werden, sobald es gefahrlos geht: abgeworfen, wenn du nicht "
    "bedienen kannst, und unter einem höheren Pik gespielt.",
    "La dame de pique doit être jouée dès que c'est sans risque : défaussée quand vous ne "
    "pouvez pas fournir, et jouée sous un pique plus fort.",
    "La reina de picas debe jugarse en cuanto sea seguro: descartada cuando no puedas seguir el "
    "palo, y jugada bajo una pica más alta.",
    "La donna di picche va giocata appena lo si può fare senza rischio: scartata quando non "
    "puoi rispondere al seme, e giocata sotto una picche più alta.",
    "De schoppenvrouw moet gespeeld worden zodra dat veilig kan: afgegooid als je geen kleur "
    "kunt bekennen, en gespeeld onder een hogere schoppen.")
add("The queen of spades must be discarded at the first chance: when you can't follow suit and "
    "hold it, you play it.",
    "Die Pik-Dame muss bei der ersten Gelegenheit abgeworfen werden: kannst du nicht bedienen "
    "und hast sie, spielst du sie.",
    "La dame de pique doit être défaussée à la première occasion : si vous ne pouvez pas "
    "fournir et l'avez, vous la jouez.",
    "La reina de picas debe descartarse a la primera ocasión: si no puedes seguir el palo y la "
    "tienes, la juegas.",
    "La donna di picche va scartata alla prima occasione: se non puoi rispondere al seme e ce "
    "l'hai, la giochi.",
    "De schoppenvrouw moet bij de eerste kans worden afgegooid: kun je geen kleur bekennen en "
    "heb je haar, dan speel je haar.")
add("Each heart is 1 point, the queen of spades 13.",
    "Jedes Herz zählt 1 Punkt, die Pik-Dame 13.",
    "Chaque cœur vaut 1 point, la dame de pique 13.",
    "Cada corazón vale 1 punto, la reina de picas 13.",
    "Ogni cuori vale 1 punto, la donna di picche 13.",
    "Elke harten telt 1 punt, de schoppenvrouw 13.")
add("Each heart is 1 point; the queen of spades is free.",
    "Jedes Herz zählt 1 Punkt; die Pik-Dame zählt nichts.",
    "Chaque cœur vaut 1 point ; la dame de pique ne compte pas.",
    "Cada corazón vale 1 punto; la reina de picas no cuenta.",
    "Ogni cuori vale 1 punto; la donna di picche non conta.",
    "Elke harten telt 1 punt; de schoppenvrouw telt niet.")
add("The jack of diamonds counts -10.",
    "Der Karo-Bube zählt -10.",
    "Le valet de carreau vaut -10.",
    "La jota de diamantes vale -10.",
    "Il fante di quadri vale -10.",
    "De ruitenboer telt -10.")
add("The ten of diamonds counts -10; taking all 15 counting cards is a slam: -%(points)s.",
    "Die Karo-Zehn zählt -10; wer alle 15 zählenden Karten nimmt, macht einen Schlemm: "
    "-%(points)s.",
    "Le dix de carreau vaut -10 ; prendre les 15 cartes qui comptent est un chelem : "
    "-%(points)s.",
    "El diez de diamantes vale -10; llevarse las 15 cartas que cuentan es un slam: "
    "-%(points)s.",
    "Il dieci di quadri vale -10; prendere tutte le 15 carte che contano è uno slam: "
    "-%(points)s.",
    "De ruitentien telt -10; alle 15 tellende kaarten pakken is een slem: -%(points)s.")
add("Without the ten of diamonds, taking every heart and the queen is no moon.",
    "Ohne die Karo-Zehn ist es kein Durchmarsch, alle Herzen und die Dame zu nehmen.",
    "Sans le dix de carreau, prendre tous les cœurs et la dame n'est pas un grand chelem.",
    "Sin el diez de diamantes, llevarse todos los corazones y la reina no es tirar a la luna.",
    "Senza il dieci di quadri, prendere tutti i cuori e la donna non è cappotto.",
    "Zonder de ruitentien is alle harten en de vrouw pakken geen maan.")
add("There is no shooting the moon: every point counts as taken.",
    "Es gibt keinen Durchmarsch: jeder Punkt zählt, wie er genommen wurde.",
    "Il n'y a pas de grand chelem : chaque point compte tel qu'il a été pris.",
    "No se puede tirar a la luna: cada punto cuenta tal como se ha llevado.",
    "Non esiste il cappotto: ogni punto conta come è stato preso.",
    "Er is geen maan schieten: elk punt telt zoals het gepakt is.")
add("Shooting the moon (all the points): you score 0 and everyone else %(v)s.",
    "Durchmarsch (alle Punkte): du bekommst 0 und alle anderen %(v)s.",
    "Grand chelem (tous les points) : vous marquez 0 et tous les autres %(v)s.",
    "Tirar a la luna (todos los puntos): tú sumas 0 y todos los demás %(v)s.",
    "Cappotto (tutti i punti): tu segni 0 e tutti gli altri %(v)s.",
    "De maan schieten (alle punten): jij krijgt 0 en alle anderen %(v)s.")
add("Shooting the moon (all the points): you go down %(v)s.",
    "Durchmarsch (alle Punkte): dir werden %(v)s abgezogen.",
    "Grand chelem (tous les points) : vous baissez de %(v)s.",
    "Tirar a la luna (todos los puntos): bajas %(v)s.",
    "Cappotto (tutti i punti): scendi di %(v)s.",
    "De maan schieten (alle punten): jij gaat %(v)s omlaag.")
add("Shooting the moon: you choose to go down %(v)s or put everyone else up %(v)s.",
    "Durchmarsch: du wählst, ob dir %(v)s abgezogen werden oder alle anderen %(v)s bekommen.",
    "Grand chelem : vous choisissez de baisser de %(v)s ou de faire monter tous les autres de "
    "%(v)s.",
    "Tirar a la luna: eliges bajar %(v)s o subir a todos los demás %(v)s.",
    "Cappotto: scegli se scendere di %(v)s o far salire tutti gli altri di %(v)s.",
    "De maan schieten: je kiest of jij %(v)s omlaag gaat of alle anderen %(v)s omhoog.")
add("Shooting the moon: everyone else scores %(v)s; once a score is %(t)s or more the shooter "
    "may go down %(v)s instead.",
    "Durchmarsch: alle anderen bekommen %(v)s; sobald ein Punktestand %(t)s oder mehr "
    "beträgt, darf der Schütze stattdessen %(v)s abziehen.",
    "Grand chelem : tous les autres marquent %(v)s ; dès qu'un score atteint %(t)s ou plus, "
    "le tireur peut plutôt baisser de %(v)s.",
    "Tirar a la luna: todos los demás suman %(v)s; cuando una puntuación llega a %(t)s o más, "
    "quien tiró puede bajar %(v)s en su lugar.",
    "Cappotto: tutti gli altri segnano %(v)s; quando un punteggio arriva a %(t)s o più, chi ha "
    "fatto cappotto può invece scendere di %(v)s.",
    "De maan schieten: alle anderen krijgen %(v)s; zodra een stand %(t)s of meer is, mag de "
    "schutter in plaats daarvan %(v)s omlaag gaan.")
add("Shooting the moon: everyone else scores %(v)s, unless that would make the shooter lose; "
    "then the shooter goes down %(v)s instead.",
    "Durchmarsch: alle anderen bekommen %(v)s, außer der Schütze würde dadurch verlieren; dann "
    "werden ihm stattdessen %(v)s abgezogen.",
    "Grand chelem : tous les autres marquent %(v)s, sauf si cela fait perdre le tireur ; il "
    "baisse alors de %(v)s à la place.",
    "Tirar a la luna: todos los demás suman %(v)s, salvo que eso haga perder a quien tiró; "
    "entonces baja %(v)s en su lugar.",
    "Cappotto: tutti gli altri segnano %(v)s, a meno che così chi ha fatto cappotto perda; "
    "allora scende invece di %(v)s.",
    "De maan schieten: alle anderen krijgen %(v)s, tenzij de schutter daardoor verliest; dan "
    "gaat de schutter in plaats daarvan %(v)s omlaag.")
add("Shooting the moon: everyone else scores %(v)s, unless that would make the shooter lose; "
    "then the shooter may choose to go down %(v)s instead.",
    "Durchmarsch: alle anderen bekommen %(v)s, außer der Schütze würde dadurch verlieren; dann "
    "darf er wählen, sich stattdessen %(v)s abziehen zu lassen.",
    "Grand chelem : tous les autres marquent %(v)s, sauf si cela fait perdre le tireur ; il "
    "peut alors choisir de baisser de %(v)s à la place.",
    "Tirar a la luna: todos los demás suman %(v)s, salvo que eso haga perder a quien tiró; "
    "entonces puede elegir bajar %(v)s en su lugar.",
    "Cappotto: tutti gli altri segnano %(v)s, a meno che così chi ha fatto cappotto perda; "
    "allora può scegliere di scendere invece di %(v)s.",
    "De maan schieten: alle anderen krijgen %(v)s, tenzij de schutter daardoor verliest; dan "
    "mag de schutter kiezen om in plaats daarvan %(v)s omlaag te gaan.")
add("A claim of the remaining tricks that could be beaten costs the claimer %(points)s points "
    "(the others 0); with three or fewer tricks left the claimer takes the remaining points "
    "instead.",
    "Eine Ansage der restlichen Stiche, die geschlagen werden könnte, kostet den Ansager "
    "%(points)s Punkte (die anderen 0); bei drei oder weniger verbleibenden Stichen bekommt er "
    "stattdessen die restlichen Punkte.",
    "Une annonce des plis restants qui pourrait être battue coûte %(points)s points à son "
    "auteur (0 aux autres) ; s'il reste trois plis ou moins, il prend plutôt les points "
    "restants.",
    "Reclamar las bazas restantes cuando se podría perder alguna le cuesta %(points)s puntos a "
    "quien reclama (0 a los demás); con tres bazas o menos por jugar, se lleva en cambio los "
    "puntos restantes.",
    "Una dichiarazione delle prese rimanenti che potrebbe essere battuta costa %(points)s punti "
    "a chi la fa (0 agli altri); con tre prese o meno rimaste, prende invece i punti rimanenti.",
    "Een claim op de overige slagen die verslagen kan worden, kost de claimer %(points)s punten "
    "(de anderen 0); met drie of minder slagen te gaan krijgt de claimer in plaats daarvan de "
    "resterende punten.")
add("The game ends when someone reaches %(target)s; lowest wins, a tie for lowest shares the "
    "win.",
    "Die Partie endet, wenn jemand %(target)s erreicht; der Niedrigste gewinnt, bei Gleichstand "
    "teilen sich die Niedrigsten den Sieg.",
    "La partie se termine quand quelqu'un atteint %(target)s ; le plus bas gagne, une égalité "
    "au plus bas partage la victoire.",
    "La partida termina cuando alguien llega a %(target)s; gana la puntuación más baja, y un "
    "empate en la más baja comparte la victoria.",
    "La partita finisce quando qualcuno arriva a %(target)s; vince il punteggio più basso, un "
    "pareggio al più basso divide la vittoria.",
    "Het spel eindigt als iemand %(target)s bereikt; de laagste wint, bij gelijkspel delen de "
    "laagsten de winst.")
add("The game ends when someone reaches %(target)s; lowest wins, a tie for lowest plays on.",
    "Die Partie endet, wenn jemand %(target)s erreicht; der Niedrigste gewinnt, bei Gleichstand "
    "wird weitergespielt.",
    "La partie se termine quand quelqu'un atteint %(target)s ; le plus bas gagne, en cas "
    "d'égalité au plus bas on continue.",
    "La partida termina cuando alguien llega a %(target)s; gana la puntuación más baja, y con "
    "un empate en la más baja se sigue jugando.",
    "La partita finisce quando qualcuno arriva a %(target)s; vince il punteggio più basso, con "
    "un pareggio al più basso si continua a giocare.",
    "Het spel eindigt als iemand %(target)s bereikt; de laagste wint, bij gelijkspel wordt "
    "doorgespeeld.")
add("At the end every pair settles the difference of their scores; a player below zero is paid "
    "double.",
    "Am Ende rechnet jedes Paar die Differenz seiner Punkte ab; wer unter null ist, bekommt "
    "doppelt.",
    "À la fin, chaque paire règle la différence de ses scores ; un joueur sous zéro est payé "
    "double.",
    "Al final cada pareja liquida la diferencia de sus puntuaciones; a un jugador por debajo de "
    "cero se le paga el doble.",
    "Alla fine ogni coppia regola la differenza dei punteggi; un giocatore sotto zero viene "
    "pagato il doppio.",
    "Aan het eind verrekent elk paar het verschil in punten; een speler onder nul krijgt dubbel "
    "uitbetaald.")
add("Chips: everyone pays their points into the pot and the deal's lowest score takes it (ties "
    "split, odd chips stay).",
    "Chips: jeder zahlt seine Punkte in den Pott und die niedrigste Punktzahl der Runde nimmt "
    "ihn (bei Gleichstand geteilt, übrige Chips bleiben).",
    "Jetons : chacun verse ses points au pot et le plus bas score de la donne le remporte "
    "(partagé en cas d'égalité, les jetons en trop restent).",
    "Fichas: cada uno paga sus puntos al bote y la puntuación más baja de la mano se lo lleva "
    "(los empates se reparten, las fichas sobrantes se quedan).",
    "Gettoni: ognuno versa i suoi punti nel piatto e il punteggio più basso della mano lo "
    "prende (diviso in caso di pareggio, i gettoni in più restano).",
    "Fiches: iedereen betaalt zijn punten in de pot en de laagste score van de ronde krijgt "
    "hem (bij gelijkspel gedeeld, overgebleven fiches blijven liggen).")
add("Sweepstakes: everyone pays their points into the pot; only a player with zero takes it, "
    "otherwise it carries over.",
    "Sweepstakes: jeder zahlt seine Punkte in den Pott; nur ein Spieler mit null nimmt ihn, "
    "sonst wird er übertragen.",
    "Sweepstakes : chacun verse ses points au pot ; seul un joueur à zéro le remporte, sinon il "
    "est reporté.",
    "Sweepstakes: cada uno paga sus puntos al bote; solo un jugador con cero se lo lleva, si no "
    "pasa a la siguiente mano.",
    "Sweepstakes: ognuno versa i suoi punti nel piatto; solo un giocatore a zero lo prende, "
    "altrimenti viene riportato.",
    "Sweepstakes: iedereen betaalt zijn punten in de pot; alleen een speler met nul krijgt hem, "
    "anders schuift hij door.")
add("Howell settlement: for each heart you pay a chip to each other player, and collect 13 "
    "minus your hearts.",
    "Howell-Abrechnung: für jedes Herz zahlst du jedem anderen Spieler einen Chip und "
    "kassierst 13 minus deine Herzen.",
    "Règlement Howell : pour chaque cœur vous payez un jeton à chaque autre joueur, et "
    "encaissez 13 moins vos cœurs.",
    "Liquidación Howell: por cada corazón pagas una ficha a cada uno de los demás jugadores, y "
    "cobras 13 menos tus corazones.",
    "Regolamento Howell: per ogni cuori paghi un gettone a ciascun altro giocatore, e incassi "
    "13 meno i tuoi cuori.",
    "Howell-afrekening: voor elke harten betaal je elke andere speler een fiche, en je "
    "ontvangt 13 min je harten.")
add("Chips: the winning bid and a chip per card of the named suit taken go into the pot. A sole "
    "player with none of the suit takes the pot; two split it (an odd chip stays); otherwise it "
    "carries over and the same bidder names the suit next deal without bidding.",
    "Chips: das Siegergebot und ein Chip pro genommener Karte der genannten Farbe kommen in den "
    "Pott. Hat ein einziger Spieler keine Karte der Farbe, nimmt er den Pott; zwei teilen ihn "
    "(ein übriger Chip bleibt); sonst wird er übertragen und derselbe Bieter nennt die Farbe "
    "in der nächsten Runde ohne Versteigerung.",
    "Jetons : l'enchère gagnante et un jeton par carte de la couleur nommée prise vont au pot. "
    "Un joueur seul sans aucune carte de la couleur remporte le pot ; deux le partagent (un "
    "jeton en trop reste) ; sinon il est reporté et le même enchérisseur nomme la couleur à la "
    "donne suivante sans enchères.",
    "Fichas: la puja ganadora y una ficha por cada carta del palo nombrado que se lleve van al "
    "bote. Un único jugador sin ninguna carta del palo se lleva el bote; dos se lo reparten "
    "(una ficha sobrante se queda); si no, pasa a la siguiente mano y el mismo pujador nombra "
    "el palo sin subasta.",
    "Gettoni: l'offerta vincente e un gettone per ogni carta presa del seme scelto vanno nel "
    "piatto. Un solo giocatore senza carte di quel seme prende il piatto; due lo dividono (un "
    "gettone dispari resta); altrimenti viene riportato e lo stesso offerente sceglie il seme "
    "nella mano successiva senza asta.",
    "Fiches: het winnende bod en een fiche per gepakte kaart van de genoemde kleur gaan in de "
    "pot. Eén speler zonder kaarten van die kleur krijgt de pot; twee delen hem (een oneven "
    "fiche blijft liggen); anders schuift hij door en noemt dezelfde bieder de kleur de "
    "volgende ronde zonder bieden.")
add("No cards are passed.", "Es werden keine Karten weitergegeben.",
    "Aucune carte n'est passée.", "No se pasan cartas.", "Non si passano carte.",
    "Er worden geen kaarten doorgegeven.")
add("A score of exactly 99 drops to 0.", "Ein Punktestand von genau 99 fällt auf 0.",
    "Un score d'exactement 99 retombe à 0.", "Una puntuación de exactamente 99 baja a 0.",
    "Un punteggio di esattamente 99 torna a 0.", "Een stand van precies 99 zakt naar 0.")
add("Cards are drawn to choose the first dealer.",
    "Der erste Geber wird durch Ziehen von Karten bestimmt.",
    "On tire des cartes pour désigner le premier donneur.",
    "Se sacan cartas para elegir al primer repartidor.",
    "Si pescano carte per scegliere il primo mazziere.",
    "Er worden kaarten getrokken om de eerste gever te kiezen.")

# pbem/present/refusals.py: rules that can't be played (Rules.problems), phrases joined by "; "
add("unknown rule options: %(options)s", "unbekannte Regeloptionen: %(options)s",
    "options de règles inconnues : %(options)s", "opciones de reglas desconocidas: %(options)s",
    "opzioni di regole sconosciute: %(options)s", "onbekende regelopties: %(options)s")
add("Those rule options don't work together: %(problems)s.",
    "Diese Regeloptionen passen nicht zusammen: %(problems)s.",
    "Ces options de règles ne vont pas ensemble : %(problems)s.",
    "Esas opciones de reglas no funcionan juntas: %(problems)s.",
    "Queste opzioni di regole non funzionano insieme: %(problems)s.",
    "Die regelopties gaan niet samen: %(problems)s.")
add("Cancellation Hearts", "Cancellation-Hearts", "Hearts Annulation",
    "Corazones de Cancelación", "Peppa ad annullamento", "Cancellation-hartenjagen")
add("Domino Hearts", "Domino-Hearts", "Hearts Domino", "Corazones Dominó", "Peppa Domino",
    "Domino-hartenjagen")
add("Auction Hearts", "Auktions-Hearts", "Hearts aux enchères", "Corazones de Subasta",
    "Peppa all'asta", "Veiling-hartenjagen")
add("Hearts", "Hearts", "Dame de pique", "Corazones", "Peppa", "Hartenjagen")
add("%(variant)s needs %(low)s to %(high)s players",
    "%(variant)s braucht %(low)s bis %(high)s Spieler",
    "%(variant)s se joue de %(low)s à %(high)s joueurs",
    "%(variant)s necesita de %(low)s a %(high)s jugadores",
    "%(variant)s richiede da %(low)s a %(high)s giocatori",
    "%(variant)s vraagt %(low)s tot %(high)s spelers")
add("a card is removed twice", "eine Karte ist doppelt herausgenommen",
    "une carte est retirée deux fois", "una carta se quita dos veces",
    "una carta è tolta due volte", "een kaart is twee keer weggehaald")
add("cancelling cards belong to Cancellation Hearts",
    "sich aufhebende Karten gehören zu Cancellation-Hearts",
    "les cartes qui s'annulent appartiennent au Hearts Annulation",
    "las cartas que se anulan son propias del Corazones de Cancelación",
    "le carte che si annullano appartengono alla Peppa ad annullamento",
    "kaarten die elkaar opheffen horen bij Cancellation-hartenjagen")
add("the auction pot belongs to Auction Hearts", "der Auktionspott gehört zu Auktions-Hearts",
    "le pot des enchères appartient au Hearts aux enchères",
    "el bote de la subasta es propio del Corazones de Subasta",
    "il piatto dell'asta appartiene alla Peppa all'asta",
    "de veilingpot hoort bij Veiling-hartenjagen")
add("%(deck)s cards do not divide among %(players)s players",
    "%(deck)s Karten lassen sich nicht auf %(players)s Spieler verteilen",
    "%(deck)s cartes ne se répartissent pas entre %(players)s joueurs",
    "%(deck)s cartas no se reparten por igual entre %(players)s jugadores",
    "%(deck)s carte non si dividono tra %(players)s giocatori",
    "%(deck)s kaarten zijn niet te verdelen over %(players)s spelers")
add("a kitty game keeps all 52 cards", "ein Spiel mit Skat behält alle 52 Karten",
    "une partie avec talon garde les 52 cartes", "una partida con bote conserva las 52 cartas",
    "una partita con il monte tiene tutte le 52 carte", "een spel met pot houdt alle 52 kaarten")
add("a pass offset is larger than the table", "eine Weitergaberichtung ist größer als der Tisch",
    "un sens de passe dépasse la table", "un sentido de pase es mayor que la mesa",
    "una direzione di passaggio è più grande del tavolo",
    "een doorgeefrichting is groter dan de tafel")
add("too many cards passed", "zu viele Karten weitergegeben", "trop de cartes passées",
    "demasiadas cartas pasadas", "troppe carte passate", "te veel kaarten doorgegeven")
add("the target score must be positive", "das Punkteziel muss positiv sein",
    "le score à atteindre doit être positif", "la puntuación objetivo debe ser positiva",
    "il punteggio obiettivo deve essere positivo", "de eindscore moet positief zijn")
add("choose one forced-queen rule", "wähle eine Pflicht-Dame-Regel",
    "choisissez une seule règle de dame forcée", "elige una sola regla de reina forzada",
    "scegli una sola regola della donna obbligata", "kies één regel voor de gedwongen vrouw")
add("only the ten of diamonds' slam can be required for the moon",
    "nur der Schlemm mit der Karo-Zehn kann für den Durchmarsch verlangt werden",
    "seul le chelem du dix de carreau peut être exigé pour le grand chelem",
    "solo el slam del diez de diamantes puede exigirse para tirar a la luna",
    "solo lo slam del dieci di quadri può essere richiesto per il cappotto",
    "alleen de slem met de ruitentien kan voor de maan vereist worden")
add("%(variant)s has no pass", "%(variant)s hat kein Weitergeben",
    "%(variant)s n'a pas de passe", "%(variant)s no tiene pase",
    "%(variant)s non ha passaggio di carte", "%(variant)s kent geen doorgeven")
add("%(variant)s has no bonus card", "%(variant)s hat keine Bonuskarte",
    "%(variant)s n'a pas de carte bonus", "%(variant)s no tiene carta de bonificación",
    "%(variant)s non ha carta bonus", "%(variant)s kent geen bonuskaart")
add("%(variant)s has no forced queen", "%(variant)s hat keine Pflicht-Dame",
    "%(variant)s n'a pas de dame forcée", "%(variant)s no tiene reina forzada",
    "%(variant)s non ha la donna obbligata", "%(variant)s kent geen gedwongen vrouw")
add("claim penalties belong to the standard game",
    "Strafen für falsche Ansagen gehören zum Standardspiel",
    "les pénalités d'annonce appartiennent au jeu standard",
    "las penalizaciones por reclamar son propias del juego estándar",
    "le penalità per le dichiarazioni appartengono al gioco standard",
    "straffen voor claims horen bij het standaardspel")
add("Auction Hearts settles with the auction pot (settlement auction)",
    "Auktions-Hearts rechnet mit dem Auktionspott ab (settlement auction)",
    "le Hearts aux enchères se règle avec le pot des enchères (settlement auction)",
    "el Corazones de Subasta se liquida con el bote de la subasta (settlement auction)",
    "la Peppa all'asta si regola con il piatto dell'asta (settlement auction)",
    "Veiling-hartenjagen rekent af met de veilingpot (settlement auction)")
add("Auction Hearts scores only the named suit: no queen, no moon",
    "Auktions-Hearts wertet nur die genannte Farbe: keine Dame, kein Durchmarsch",
    "le Hearts aux enchères ne compte que la couleur nommée : pas de dame, pas de grand "
    "chelem",
    "el Corazones de Subasta solo puntúa el palo nombrado: ni reina ni luna",
    "la Peppa all'asta conta solo il seme scelto: niente donna, niente cappotto",
    "Veiling-hartenjagen telt alleen de genoemde kleur: geen vrouw, geen maan")
add("%(variant)s plays with whole decks: no cards removed, no kitty option",
    "%(variant)s wird mit ganzen Kartenspielen gespielt: keine Karten herausgenommen, kein "
    "Skat",
    "%(variant)s se joue avec des jeux complets : aucune carte retirée, pas d'option de talon",
    "%(variant)s se juega con barajas completas: sin cartas quitadas ni bote",
    "%(variant)s si gioca con mazzi interi: nessuna carta tolta, niente monte",
    "%(variant)s wordt met volledige spellen gespeeld: geen kaarten eruit, geen pot")
add("in %(variant)s the player left of the dealer leads",
    "bei %(variant)s spielt der Spieler links vom Geber aus",
    "au %(variant)s, le joueur à gauche du donneur entame",
    "en %(variant)s sale el jugador a la izquierda del repartidor",
    "in %(variant)s apre il giocatore alla sinistra del mazziere",
    "bij %(variant)s komt de speler links van de gever uit")
add("in Auction Hearts the winning bidder leads any card (opening_lead left_of_dealer)",
    "bei Auktions-Hearts spielt der Gewinner der Versteigerung eine beliebige Karte aus "
    "(opening_lead left_of_dealer)",
    "au Hearts aux enchères, le gagnant des enchères entame avec la carte de son choix "
    "(opening_lead left_of_dealer)",
    "en el Corazones de Subasta sale el ganador de la subasta con cualquier carta "
    "(opening_lead left_of_dealer)",
    "nella Peppa all'asta chi vince l'asta apre con una carta qualsiasi "
    "(opening_lead left_of_dealer)",
    "bij Veiling-hartenjagen komt de winnaar van het bieden uit met een willekeurige kaart "
    "(opening_lead left_of_dealer)")
add("the Cancellation widow goes with the first trick",
    "der Skat bei Cancellation-Hearts geht mit dem ersten Stich",
    "la veuve du Hearts Annulation va avec le premier pli",
    "la viuda del Corazones de Cancelación va con la primera baza",
    "il monte della Peppa ad annullamento va con la prima presa",
    "de weduwe bij Cancellation-hartenjagen gaat met de eerste slag mee")

# pbem/present/rules_words.py: preset titles (the engine names presets by key)
for fam, de, fr, es, it, nl, seed in (
        ("Omnibus Hearts, jack of diamonds -10", "Omnibus-Hearts, Karo-Bube -10",
         "Hearts Omnibus, valet de carreau -10", "Corazones Omnibus, jota de diamantes -10",
         "Peppa Omnibus, fante di quadri -10", "Omnibus-hartenjagen, ruitenboer -10", "002"),
        ("Cancellation Hearts", "Cancellation-Hearts", "Hearts Annulation",
         "Corazones de Cancelación", "Peppa ad annullamento", "Cancellation-hartenjagen",
         "001"),
        ("Domino Hearts", "Domino-Hearts", "Hearts Domino", "Corazones Dominó", "Peppa Domino",
         "Domino-hartenjagen", "001"),
        ("Auction Hearts", "Auktions-Hearts", "Hearts aux enchères", "Corazones de Subasta",
         "Peppa all'asta", "Veiling-hartenjagen", "001")):
    add(f"{fam}, %(num)d player (seed {seed})",
        (f"{de}, %(num)d Spieler (Seed {seed})", f"{de}, %(num)d Spieler (Seed {seed})"),
        (f"{fr}, %(num)d joueur (seed {seed})", f"{fr}, %(num)d joueurs (seed {seed})"),
        (f"{es}, %(num)d jugador (seed {seed})", f"{es}, %(num)d jugadores (seed {seed})"),
        (f"{it}, %(num)d giocatore (seed {seed})", f"{it}, %(num)d giocatori (seed {seed})"),
        (f"{nl}, %(num)d speler (seed {seed})", f"{nl}, %(num)d spelers (seed {seed})"),
        plural=f"{fam}, %(num)d players (seed {seed})")
for en, de, fr, es, it, nl in (
        ("Standard Hearts (Black Lady)", "Standard-Hearts (Black Lady)",
         "Dame de pique standard (Black Lady)", "Corazones estándar (Black Lady)",
         "Peppa standard (Black Lady)", "Standaard hartenjagen (Black Lady)"),
        ("Bicycle rules (seed 000)", "Bicycle-Regeln (Seed 000)", "Règles Bicycle (seed 000)",
         "Reglas Bicycle (seed 000)", "Regole Bicycle (seed 000)", "Bicycle-regels (seed 000)"),
        ("Hoyle rules (seed 001)", "Hoyle-Regeln (Seed 001)", "Règles de Hoyle (seed 001)",
         "Reglas de Hoyle (seed 001)", "Regole di Hoyle (seed 001)", "Hoyle-regels (seed 001)"),
        ("Hoyle rules, pass left, right, across (seed 001)",
         "Hoyle-Regeln, Weitergeben links, rechts, gegenüber (Seed 001)",
         "Règles de Hoyle, passe à gauche, à droite, en face (seed 001)",
         "Reglas de Hoyle, pase a la izquierda, a la derecha, enfrente (seed 001)",
         "Regole di Hoyle, passaggio a sinistra, a destra, di fronte (seed 001)",
         "Hoyle-regels, doorgeven links, rechts, tegenover (seed 001)"),
        ("Hoyle rules with the forced queen (seed 001)",
         "Hoyle-Regeln mit Pflicht-Dame (Seed 001)",
         "Règles de Hoyle avec la dame forcée (seed 001)",
         "Reglas de Hoyle con la reina forzada (seed 001)",
         "Regole di Hoyle con la donna obbligata (seed 001)",
         "Hoyle-regels met de gedwongen vrouw (seed 001)"),
        ("Black Lady, optional rules off (seed 002)",
         "Black Lady, optionale Regeln aus (Seed 002)",
         "Black Lady, règles optionnelles désactivées (seed 002)",
         "Black Lady, reglas opcionales desactivadas (seed 002)",
         "Black Lady, regole opzionali disattivate (seed 002)",
         "Black Lady, optionele regels uit (seed 002)"),
        ("Black Lady with shooter protection and no blood (seed 002)",
         "Black Lady mit Schützenschutz und ohne Blut im ersten Stich (Seed 002)",
         "Black Lady avec protection du tireur et sans sang au premier pli (seed 002)",
         "Black Lady con protección del tirador y sin sangre en la primera baza (seed 002)",
         "Black Lady con protezione del cappotto e niente sangue nella prima presa (seed 002)",
         "Black Lady met schuttersbescherming en geen bloed in de eerste slag (seed 002)"),
        ("Club rules (seed 003)", "Vereinsregeln (Seed 003)", "Règles de club (seed 003)",
         "Reglas de club (seed 003)", "Regole da circolo (seed 003)",
         "Clubregels (seed 003)"),
        ("Club rules, 5 players (seed 003)", "Vereinsregeln, 5 Spieler (Seed 003)",
         "Règles de club, 5 joueurs (seed 003)", "Reglas de club, 5 jugadores (seed 003)",
         "Regole da circolo, 5 giocatori (seed 003)", "Clubregels, 5 spelers (seed 003)"),
        ("Club rules, 6 players (seed 003)", "Vereinsregeln, 6 Spieler (Seed 003)",
         "Règles de club, 6 joueurs (seed 003)", "Reglas de club, 6 jugadores (seed 003)",
         "Regole da circolo, 6 giocatori (seed 003)", "Clubregels, 6 spelers (seed 003)"),
        ("Simple rules (seed 004)", "Einfache Regeln (Seed 004)", "Règles simples (seed 004)",
         "Reglas sencillas (seed 004)", "Regole semplici (seed 004)",
         "Eenvoudige regels (seed 004)"),
        ("Omnibus Hearts, jack of diamonds -10 (seed 002)",
         "Omnibus-Hearts, Karo-Bube -10 (Seed 002)",
         "Hearts Omnibus, valet de carreau -10 (seed 002)",
         "Corazones Omnibus, jota de diamantes -10 (seed 002)",
         "Peppa Omnibus, fante di quadri -10 (seed 002)",
         "Omnibus-hartenjagen, ruitenboer -10 (seed 002)"),
        ("Omnibus Hearts, ten of diamonds -10 with the slam (seed 001)",
         "Omnibus-Hearts, Karo-Zehn -10 mit Schlemm (Seed 001)",
         "Hearts Omnibus, dix de carreau -10 avec le chelem (seed 001)",
         "Corazones Omnibus, diez de diamantes -10 con slam (seed 001)",
         "Peppa Omnibus, dieci di quadri -10 con lo slam (seed 001)",
         "Omnibus-hartenjagen, ruitentien -10 met slem (seed 001)"),
        ("Omnibus Hearts, 5 players (seed 001)", "Omnibus-Hearts, 5 Spieler (Seed 001)",
         "Hearts Omnibus, 5 joueurs (seed 001)", "Corazones Omnibus, 5 jugadores (seed 001)",
         "Peppa Omnibus, 5 giocatori (seed 001)", "Omnibus-hartenjagen, 5 spelers (seed 001)"),
        ("Omnibus Hearts, 6 players (seed 001)", "Omnibus-Hearts, 6 Spieler (Seed 001)",
         "Hearts Omnibus, 6 joueurs (seed 001)", "Corazones Omnibus, 6 jugadores (seed 001)",
         "Peppa Omnibus, 6 giocatori (seed 001)", "Omnibus-hartenjagen, 6 spelers (seed 001)"),
        ("Hearts Without Black Lady (seed 001)", "Hearts ohne Black Lady (Seed 001)",
         "Hearts sans Black Lady (seed 001)", "Corazones sin Black Lady (seed 001)",
         "Peppa senza Black Lady (seed 001)", "Hartenjagen zonder Black Lady (seed 001)"),
        ("Chip scoring (seed 001, variation 1)", "Abrechnung mit Chips (Seed 001, Variante 1)",
         "Décompte aux jetons (seed 001, variante 1)",
         "Puntuación con fichas (seed 001, variante 1)",
         "Punteggio a gettoni (seed 001, variante 1)",
         "Telling met fiches (seed 001, variant 1)"),
        ("Sweepstakes (seed 001, variation 2)", "Sweepstakes (Seed 001, Variante 2)",
         "Sweepstakes (seed 001, variante 2)", "Sweepstakes (seed 001, variante 2)",
         "Sweepstakes (seed 001, variante 2)", "Sweepstakes (seed 001, variant 2)"),
        ("Three players (2D removed)", "Drei Spieler (2D herausgenommen)",
         "Trois joueurs (2D retiré)", "Tres jugadores (sin 2D)", "Tre giocatori (2D tolto)",
         "Drie spelers (2D eruit)"),
        ("Three players with a kitty", "Drei Spieler mit Skat", "Trois joueurs avec un talon",
         "Tres jugadores con bote", "Tre giocatori con il monte", "Drie spelers met een pot"),
        ("Five players (2D 2C removed)", "Fünf Spieler (2D 2C herausgenommen)",
         "Cinq joueurs (2D 2C retirés)", "Cinco jugadores (sin 2D 2C)",
         "Cinque giocatori (2D 2C tolti)", "Vijf spelers (2D 2C eruit)"),
        ("Five players, pass left then right (seed 001)",
         "Fünf Spieler, Weitergeben links, dann rechts (Seed 001)",
         "Cinq joueurs, passe à gauche puis à droite (seed 001)",
         "Cinco jugadores, pase a la izquierda y luego a la derecha (seed 001)",
         "Cinque giocatori, passaggio a sinistra e poi a destra (seed 001)",
         "Vijf spelers, doorgeven links en dan rechts (seed 001)"),
        ("Five players with a kitty", "Fünf Spieler mit Skat", "Cinq joueurs avec un talon",
         "Cinco jugadores con bote", "Cinque giocatori con il monte",
         "Vijf spelers met een pot"),
        ("Six players (2D 2C 2S 3D removed)", "Sechs Spieler (2D 2C 2S 3D herausgenommen)",
         "Six joueurs (2D 2C 2S 3D retirés)", "Seis jugadores (sin 2D 2C 2S 3D)",
         "Sei giocatori (2D 2C 2S 3D tolti)", "Zes spelers (2D 2C 2S 3D eruit)"),
        ("Six players (2D 3D 3C 4C removed)", "Sechs Spieler (2D 3D 3C 4C herausgenommen)",
         "Six joueurs (2D 3D 3C 4C retirés)", "Seis jugadores (sin 2D 3D 3C 4C)",
         "Sei giocatori (2D 3D 3C 4C tolti)", "Zes spelers (2D 3D 3C 4C eruit)"),
        ("Six players with a kitty", "Sechs Spieler mit Skat", "Six joueurs avec un talon",
         "Seis jugadores con bote", "Sei giocatori con il monte", "Zes spelers met een pot"),
        ("Seven players (2S 3D 3C removed)", "Sieben Spieler (2S 3D 3C herausgenommen)",
         "Sept joueurs (2S 3D 3C retirés)", "Siete jugadores (sin 2S 3D 3C)",
         "Sette giocatori (2S 3D 3C tolti)", "Zeven spelers (2S 3D 3C eruit)"),
        ("Seven players with a kitty", "Sieben Spieler mit Skat", "Sept joueurs avec un talon",
         "Siete jugadores con bote", "Sette giocatori con il monte",
         "Zeven spelers met een pot"),
        ("Cancellation Hearts, same rank cancels, 9 players (seed 001)",
         "Cancellation-Hearts, gleicher Wert hebt sich auf, 9 Spieler (Seed 001)",
         "Hearts Annulation, même valeur s'annule, 9 joueurs (seed 001)",
         "Corazones de Cancelación, el mismo valor se anula, 9 jugadores (seed 001)",
         "Peppa ad annullamento, lo stesso valore si annulla, 9 giocatori (seed 001)",
         "Cancellation-hartenjagen, gelijke waarde heft op, 9 spelers (seed 001)")):
    add(en, de, fr, es, it, nl)

# pbem/present/refusals.py: what the game waits for (Asked.awaited's code), reminders, nudges
for en, de, fr, es, it, nl in (
        ("your pass", "deine Weitergabe", "votre passe", "tu pase", "il tuo passaggio",
         "jouw doorgeefbeurt"),
        ("your moon choice", "deine Wahl zum Durchmarsch", "votre choix pour le grand chelem",
         "tu elección de la luna", "la tua scelta sul cappotto", "jouw keuze voor de maan"),
        ("your bid", "dein Gebot", "votre enchère", "tu puja", "la tua offerta", "jouw bod"),
        ("your choice of the suit to avoid", "deine Wahl der zu meidenden Farbe",
         "votre choix de la couleur à éviter", "tu elección del palo a evitar",
         "la tua scelta del seme da evitare", "jouw keuze van de kleur om te vermijden"),
        ("your card", "deine Karte", "votre carte", "tu carta", "la tua carta", "jouw kaart")):
    add(en, de, fr, es, it, nl)

# pbem/present/rules_words.py: a preset's summary, short phrases joined by "; "
for en, de, fr, es, it, nl in (
        ("the standard game", "das Standardspiel", "le jeu standard", "el juego estándar",
         "il gioco standard", "het standaardspel"),
        ("cancellation hearts, %(players)s players, same rank cancels",
         "Cancellation-Hearts, %(players)s Spieler, gleicher Wert hebt sich auf",
         "Hearts Annulation, %(players)s joueurs, même valeur s'annule",
         "Corazones de Cancelación, %(players)s jugadores, el mismo valor se anula",
         "Peppa ad annullamento, %(players)s giocatori, lo stesso valore si annulla",
         "Cancellation-hartenjagen, %(players)s spelers, gelijke waarde heft op"),
        ("cancellation hearts, %(players)s players", "Cancellation-Hearts, %(players)s Spieler",
         "Hearts Annulation, %(players)s joueurs",
         "Corazones de Cancelación, %(players)s jugadores",
         "Peppa ad annullamento, %(players)s giocatori",
         "Cancellation-hartenjagen, %(players)s spelers"),
        ("domino hearts, %(players)s players", "Domino-Hearts, %(players)s Spieler",
         "Hearts Domino, %(players)s joueurs", "Corazones Dominó, %(players)s jugadores",
         "Peppa Domino, %(players)s giocatori", "Domino-hartenjagen, %(players)s spelers"),
        ("auction hearts, %(players)s players", "Auktions-Hearts, %(players)s Spieler",
         "Hearts aux enchères, %(players)s joueurs",
         "Corazones de Subasta, %(players)s jugadores",
         "Peppa all'asta, %(players)s giocatori", "Veiling-hartenjagen, %(players)s spelers"),
        ("hearts or the QS break hearts when discarded",
         "Herz oder die Pik-Dame brechen Herz beim Abwerfen",
         "les cœurs ou la dame de pique ouvrent les cœurs quand ils sont défaussés",
         "los corazones o la reina de picas rompen corazones al descartarse",
         "i cuori o la donna di picche aprono i cuori quando scartati",
         "harten of de schoppenvrouw breken harten bij afgooien"),
        ("hearts or the QS break hearts", "Herz oder die Pik-Dame brechen Herz",
         "les cœurs ou la dame de pique ouvrent les cœurs",
         "los corazones o la reina de picas rompen corazones",
         "i cuori o la donna di picche aprono i cuori",
         "harten of de schoppenvrouw breken harten"),
        ("only hearts break hearts when discarded", "nur Herz bricht Herz beim Abwerfen",
         "seuls les cœurs ouvrent les cœurs quand ils sont défaussés",
         "solo los corazones rompen corazones al descartarse",
         "solo i cuori aprono i cuori quando scartati",
         "alleen harten breken harten bij afgooien"),
        ("only hearts break hearts", "nur Herz bricht Herz",
         "seuls les cœurs ouvrent les cœurs", "solo los corazones rompen corazones",
         "solo i cuori aprono i cuori", "alleen harten breken harten"),
        ("no moon", "kein Durchmarsch", "pas de grand chelem", "sin luna", "niente cappotto",
         "geen maan"),
        ("moon: shooter -%(v)s", "Durchmarsch: Schütze -%(v)s", "grand chelem : tireur -%(v)s",
         "luna: quien tira -%(v)s", "cappotto: chi lo fa -%(v)s", "maan: schutter -%(v)s"),
        ("moon: the shooter chooses", "Durchmarsch: der Schütze wählt",
         "grand chelem : le tireur choisit", "luna: elige quien tira",
         "cappotto: sceglie chi lo fa", "maan: de schutter kiest"),
        ("moon: others +%(v)s", "Durchmarsch: die anderen +%(v)s",
         "grand chelem : les autres +%(v)s", "luna: los demás +%(v)s",
         "cappotto: gli altri +%(v)s", "maan: de anderen +%(v)s"),
        ("the 74 rule for the moon", "die 74er-Regel beim Durchmarsch",
         "la règle des 74 pour le grand chelem", "la regla del 74 para la luna",
         "la regola del 74 per il cappotto", "de 74-regel voor de maan"),
        ("shooter protection", "Schützenschutz", "protection du tireur",
         "protección del tirador", "protezione di chi fa cappotto", "schuttersbescherming"),
        ("shooter protection, the shooter asked", "Schützenschutz, der Schütze wird gefragt",
         "protection du tireur, le tireur choisit", "protección del tirador, se le pregunta",
         "protezione di chi fa cappotto, che sceglie", "schuttersbescherming, de schutter kiest"),
        ("pairwise settlement, below zero paid double",
         "paarweise Abrechnung, unter null doppelt",
         "règlement par paires, sous zéro payé double",
         "liquidación por parejas, bajo cero se paga el doble",
         "regolamento a coppie, sotto zero pagato il doppio",
         "afrekening per paar, onder nul dubbel uitbetaald"),
        ("chips: the deal's lowest score takes the pot",
         "Chips: die niedrigste Punktzahl der Runde nimmt den Pott",
         "jetons : le plus bas score de la donne prend le pot",
         "fichas: la puntuación más baja de la mano se lleva el bote",
         "gettoni: il punteggio più basso della mano prende il piatto",
         "fiches: de laagste score van de ronde krijgt de pot"),
        ("sweepstakes: only a zero score takes the pot",
         "Sweepstakes: nur null Punkte nehmen den Pott",
         "sweepstakes : seul un score nul prend le pot",
         "sweepstakes: solo una puntuación de cero se lleva el bote",
         "sweepstakes: solo un punteggio zero prende il piatto",
         "sweepstakes: alleen een score van nul krijgt de pot"),
        ("Howell settlement", "Howell-Abrechnung", "règlement Howell", "liquidación Howell",
         "regolamento Howell", "Howell-afrekening"),
        ("bid chips to name the suit to avoid",
         "Chips bieten, um die zu meidende Farbe zu nennen",
         "enchérir des jetons pour nommer la couleur à éviter",
         "pujar fichas para nombrar el palo a evitar",
         "offrire gettoni per scegliere il seme da evitare",
         "fiches bieden om de te vermijden kleur te noemen"),
        ("%(players)s players, %(cards)s removed", "%(players)s Spieler, %(cards)s entfernt",
         "%(players)s joueurs, %(cards)s retirées", "%(players)s jugadores, sin %(cards)s",
         "%(players)s giocatori, %(cards)s tolte", "%(players)s spelers, %(cards)s eruit"),
        ("%(players)s players, a kitty of %(kitty)s to the first trick",
         "%(players)s Spieler, ein Skat von %(kitty)s für den ersten Stich",
         "%(players)s joueurs, un talon de %(kitty)s pour le premier pli",
         "%(players)s jugadores, un bote de %(kitty)s para la primera baza",
         "%(players)s giocatori, un monte di %(kitty)s alla prima presa",
         "%(players)s spelers, een pot van %(kitty)s voor de eerste slag"),
        ("%(players)s players, a kitty of %(kitty)s to the last trick",
         "%(players)s Spieler, ein Skat von %(kitty)s für den letzten Stich",
         "%(players)s joueurs, un talon de %(kitty)s pour le dernier pli",
         "%(players)s jugadores, un bote de %(kitty)s para la última baza",
         "%(players)s giocatori, un monte di %(kitty)s all'ultima presa",
         "%(players)s spelers, een pot van %(kitty)s voor de laatste slag"),
        ("%(players)s players", "%(players)s Spieler", "%(players)s joueurs",
         "%(players)s jugadores", "%(players)s giocatori", "%(players)s spelers"),
        ("no pass", "kein Weitergeben", "pas de passe", "sin pase", "nessun passaggio",
         "niet doorgeven"),
        ("pass %(count)s: %(cycle)s", "%(count)s weitergeben: %(cycle)s",
         "passer %(count)s : %(cycle)s", "pasar %(count)s: %(cycle)s",
         "passare %(count)s: %(cycle)s", "%(count)s doorgeven: %(cycle)s"),
        ("left of dealer leads any card", "links vom Geber spielt eine beliebige Karte aus",
         "à gauche du donneur entame avec n'importe quelle carte",
         "a la izquierda del repartidor sale con cualquier carta",
         "alla sinistra del mazziere apre con una carta qualsiasi",
         "links van de gever komt uit met een willekeurige kaart"),
        ("any club leads", "ein beliebiges Kreuz eröffnet", "n'importe quel trèfle entame",
         "sale cualquier trébol", "apre una carta di fiori qualsiasi",
         "elke klaveren mag uitkomen"),
        ("points allowed on the first trick", "Punkte im ersten Stich erlaubt",
         "points permis au premier pli", "puntos permitidos en la primera baza",
         "punti ammessi nella prima presa", "punten toegestaan in de eerste slag"),
        ("no hearts-broken rule", "keine Regel zum Brechen von Herz",
         "pas de règle d'ouverture des cœurs", "sin regla de corazones rotos",
         "nessuna regola dei cuori aperti", "geen regel voor gebroken harten"),
        ("holding only points on trick one, a heart before the QS",
         "nur Punkte im ersten Stich auf der Hand: erst ein Herz, dann die Pik-Dame",
         "si vous n'avez que des points au premier pli, un cœur avant la dame de pique",
         "con solo puntos en la primera baza, un corazón antes de la reina de picas",
         "con solo punti alla prima presa, un cuori prima della donna di picche",
         "alleen punten in de eerste slag: eerst een harten, dan de schoppenvrouw"),
        ("holding only hearts and the QS, a heart may be led",
         "mit nur Herz und der Pik-Dame darf Herz ausgespielt werden",
         "avec seulement des cœurs et la dame de pique, on peut entamer à cœur",
         "con solo corazones y la reina de picas, se puede salir con corazón",
         "con solo cuori e la donna di picche, si può aprire con un cuori",
         "met alleen harten en de schoppenvrouw mag je met harten uitkomen"),
        ("forced queen", "Pflicht-Dame", "dame forcée", "reina forzada", "donna obbligata",
         "gedwongen vrouw"),
        ("the QS discarded at the first chance", "die Pik-Dame bei erster Gelegenheit abwerfen",
         "la dame de pique défaussée à la première occasion",
         "la reina de picas descartada a la primera ocasión",
         "la donna di picche scartata alla prima occasione",
         "de schoppenvrouw bij de eerste kans afgooien"),
        ("QS not scored", "Pik-Dame zählt nicht", "dame de pique non comptée",
         "la reina de picas no puntúa", "donna di picche non conta", "schoppenvrouw telt niet"),
        ("JD counts -10", "Karo-Bube zählt -10", "valet de carreau -10",
         "jota de diamantes -10", "fante di quadri -10", "ruitenboer telt -10"),
        ("TD counts -10; all 15 counting cards: -%(points)s",
         "Karo-Zehn zählt -10; alle 15 zählenden Karten: -%(points)s",
         "dix de carreau -10 ; les 15 cartes qui comptent : -%(points)s",
         "diez de diamantes -10; las 15 cartas que cuentan: -%(points)s",
         "dieci di quadri -10; tutte le 15 carte che contano: -%(points)s",
         "ruitentien telt -10; alle 15 tellende kaarten: -%(points)s"),
        ("no moon without the TD", "kein Durchmarsch ohne die Karo-Zehn",
         "pas de grand chelem sans le dix de carreau", "sin luna sin el diez de diamantes",
         "niente cappotto senza il dieci di quadri", "geen maan zonder de ruitentien"),
        ("a false claim costs %(points)s", "eine falsche Ansage kostet %(points)s",
         "une annonce fausse coûte %(points)s", "una reclamación falsa cuesta %(points)s",
         "una dichiarazione falsa costa %(points)s", "een onjuiste claim kost %(points)s"),
        ("game to %(target)s", "Partie bis %(target)s", "partie en %(target)s",
         "partida a %(target)s", "partita a %(target)s", "spel tot %(target)s"),
        ("a tie for lowest shares the win", "Gleichstand der Niedrigsten teilt den Sieg",
         "une égalité au plus bas partage la victoire",
         "un empate en la más baja comparte la victoria",
         "un pareggio al più basso divide la vittoria",
         "bij gelijkspel delen de laagsten de winst"),
        ("99 drops to 0", "99 fällt auf 0", "99 retombe à 0", "99 baja a 0", "99 torna a 0",
         "99 zakt naar 0"),
        ("draw for first dealer", "erster Geber wird gezogen", "tirage du premier donneur",
         "sorteo del primer repartidor", "estrazione del primo mazziere",
         "trekken voor de eerste gever")):
    add(en, de, fr, es, it, nl)


def main() -> None:
    for i, lang in enumerate(LANGS):
        catalog = Catalog(locale=lang, project="pbem", fuzzy=False)
        for ctx, msgid, plural, translations in E:
            text = translations[i]
            if plural is not None:
                assert isinstance(text, tuple) and len(text) == 2, msgid
                catalog.add((msgid, plural), tuple(text), context=ctx)
            else:
                assert isinstance(text, str), msgid
                catalog.add(msgid, text, context=ctx)
        buffer = io.BytesIO()
        write_po(buffer, catalog, width=100, omit_header=False)
        text = re.sub(r'"Plural-Forms: [^"]*"',
                      '"Plural-Forms: nplurals=2; plural=%s;\\n"'
                      % ("(n > 1)" if lang == "fr" else "(n != 1)"),
                      buffer.getvalue().decode("utf-8"))
        text = re.sub(r'^msgstr\[2\] ""\n', "", text, flags=re.M)  # babel's CLDR plural
        text = re.sub(r"^# (FIRST AUTHOR|Copyright).*\n", "", text, flags=re.M)
        (HERE / f"{lang}.po").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
