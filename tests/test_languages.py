"""Words beyond a-z: the Italian, Spanish, German and French dictionaries, their alphabets, and every
kind that reads letters (Ruzzle, Letter Boxed, ladder, Spelling Bee) on them.

Answers are re-checked by ``cpwords.verify``; the Ruzzle engines are compared with each other and
with a brute force over the board's paths; the commands run as a user runs them: one in a fresh
interpreter (accented letters through a real UTF-8 stdout), the others through ``cpwords.cli.main``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pace import HANG_S

from cpwords import api, verify
from cpwords.alphabet import ENGLISH, FRENCH, GERMAN, ITALIAN, SPANISH, alphabet_of
from cpwords.cli import main
from cpwords.errors import InputError
from cpwords.lexicon import Lexicon, known_dictionaries, load_lexicon
from cpwords.puzzles.loading import parse_spec
from cpwords.puzzles.ruzzle.board import LETTER_VALUES, Board, path_score
from cpwords.specs import DictionaryRef

LANGUAGES = ("italian", "spanish", "german", "french")


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``cpwords ARGS`` in a fresh interpreter, as a user runs it."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "cpwords", *args], capture_output=True, text=True,
                          encoding="utf-8", timeout=HANG_S, cwd=cwd, env=env)


def main_of(capsys: pytest.CaptureFixture[str], *args: str) -> subprocess.CompletedProcess[str]:
    """``cpwords ARGS`` through ``cpwords.cli.main`` in this process: its exit code and printed text."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(list(args), code, out, err)


def solved(data: dict) -> tuple:
    """Solve a spec given as data; every answer is re-checked by the kind's checker."""
    spec = parse_spec(data)
    result = api.solve(spec)
    verify.verify(spec, result)
    return spec, result


# ---------------------------------------------------------------- alphabets and dictionaries


def test_alphabets_fold_as_the_games_do() -> None:
    assert ITALIAN.fold("Perché CITTÀ") == "perche citta" and ITALIAN.size == 26
    assert SPANISH.fold("Pingüino Niño Árbol") == "pinguino niño arbol" and SPANISH.letters[-1] == "ñ"
    assert GERMAN.fold("Straße ÜBER Café") == "strasse über cafe" and GERMAN.size == 29
    assert FRENCH.fold("Œuvre Garçon Noël") == "oeuvre garcon noel"
    # A combining accent is the same letter as the precomposed one.
    assert SPANISH.fold("nin\u0303o") == "niño"
    # English folds nothing: an accented word is not an English puzzle word.
    assert ENGLISH.fold("Café") == "café" and ENGLISH.bad_letter("café") == "é"
    assert alphabet_of("es") is SPANISH and alphabet_of(None) is ENGLISH
    for a in (ENGLISH, ITALIAN, SPANISH, GERMAN, FRENCH):
        assert [a.index[ch] for ch in a.letters] == list(range(a.size))
        assert list(a.codes(a.letters)) == list(range(a.size))


@pytest.mark.parametrize("language", LANGUAGES)
def test_language_dictionaries_load_with_their_alphabet(language: str) -> None:
    lex = load_lexicon(language)
    alias = load_lexicon(lex.alphabet.code)
    assert lex.language == language and len(lex) > 100_000 and list(alias) == list(lex)
    assert language in known_dictionaries()
    assert all(lex.alphabet.is_word(w) for w in lex.words[:5000])
    # Most frequent first, levels and rareness rise with rank, filters work as in English.
    top, rare = lex.words[0], lex.words[-1]
    assert lex.rareness(top) == 1 and lex.rareness(rare) > 1000 and lex.level(top) <= lex.level(rare)
    small = load_lexicon(DictionaryRef(name=language, max_level=35))
    assert 20_000 < len(small) < len(lex) and small.alphabet is lex.alphabet


def test_words_the_issue_names_are_in_their_dictionaries() -> None:
    italian, spanish, german, french = (load_lexicon(x) for x in LANGUAGES)
    assert {"casa", "mare", "sole", "vino", "citta", "perche"} <= set(italian)
    assert {"niño", "año", "verguenza", "cigueña", "casa", "corazon"} <= set(spanish)
    assert {"über", "haus", "mädchen", "schön", "strasse", "grösse"} <= set(german)
    assert {"maison", "etre", "coeur", "garcon", "francais"} <= set(french)
    # Inflected forms are there; fragments and typos are not.
    assert {"mangiamo", "mangiato", "mangerei"} <= set(italian)
    assert {"hablamos", "hablaron"} <= set(spanish) and {"häuser", "gegangen"} <= set(german)
    assert not {"l", "d", "ll", "nt", "qu"} & set(italian) and "teh" not in french


def test_user_lists_take_a_language() -> None:
    lex = Lexicon.from_words(["Niño", "AÑO", "vergüenza", "x1", "日本"], alphabet=SPANISH)
    assert set(lex) == {"niño", "año", "verguenza"} and lex.zipf("niño") > 3 and lex.level("niño") < 100
    assert "letters a-z and ñ only" in lex.warnings[0]
    ref = DictionaryRef(words=["Città", "mare"], language="it")
    assert ref.language == "italian" and set(load_lexicon(ref)) == {"citta", "mare"}
    # English keeps refusing accents; the content hash tells languages apart.
    assert set(Lexicon.from_words(["café", "cafe"])) == {"cafe"}
    assert Lexicon.from_words(["casa"]).content_hash != Lexicon.from_words(["casa"], alphabet=ITALIAN).content_hash
    with pytest.raises(ValueError, match="unknown language"):
        DictionaryRef(words=["x"], language="klingon")
    with pytest.raises(ValueError, match="is german"):
        DictionaryRef(name="de", language="french")


# ---------------------------------------------------------------- Ruzzle


def _brute_force_words(board: Board, words: set[str], min_letters: int) -> set[str]:
    """Every dictionary word along any simple king path (independent of the engines). A path is
    followed while its letters begin some word: no word lies beyond the others."""
    found: set[str] = set()
    on_board = set("".join(board.tiles))
    words = {word for word in words if set(word) <= on_board}  # a letter no tile shows: on no path
    beginnings = {word[:i] for word in words for i in range(1, len(word))}

    def grow(path: list[int], text: str) -> None:
        if len(text) >= min_letters and text in words:
            found.add(text)
        if text not in beginnings:
            return
        for nb in board.neighbours[path[-1]]:
            if nb not in path:
                grow([*path, nb], text + board.tiles[nb])

    for cell in range(board.size):
        grow([cell], board.tiles[cell])
    return found


@pytest.mark.parametrize(("language", "rows", "wanted"), [
    # one language beyond a-z in part 1; the others under `sweep` (each builds its dictionary's indexes)
    pytest.param("italian", ["casa", "mare", "sole", "vino"], {"casa", "mare", "sole", "vino"},
                 marks=pytest.mark.sweep),
    ("spanish", ["niño", "gato", "casa", "pera"], {"niño", "gato", "casa", "pera"}),
    pytest.param("german", ["über", "haus", "land", "zeit"], {"über", "haus", "land", "zeit"},
                 marks=pytest.mark.sweep),
])
def test_ruzzle_boards_in_other_languages(language: str, rows: list[str], wanted: set[str]) -> None:
    answers = {}
    for engine in ("trie", "active", "enumerate"):
        spec, result = solved({"kind": "ruzzle", "grid": rows, "dictionary": language, "engine": engine,
                               "bonuses": "ruzzle-4x4"})
        assert result.status == "optimal"
        answers[engine] = {(s.word, s.score) for s in result.solutions}
    assert answers["trie"] == answers["active"] == answers["enumerate"]
    words = {w for w, _ in answers["trie"]}
    assert wanted <= words
    # The same words as a brute force over every path of the board.
    lex = load_lexicon(DictionaryRef(name=language, max_length=16))
    board = Board.from_tiles(spec.tiles(), spec.bonus_cells(), lex.alphabet)
    assert words == _brute_force_words(board, set(lex), 2)


def test_ruzzle_scores_with_the_languages_letter_values() -> None:
    _, result = solved({"kind": "ruzzle", "grid": ["niño", "gato", "casa", "pera"], "dictionary": "es"})
    nino = next(s for s in result.solutions if s.word == "niño")
    values = LETTER_VALUES["spanish"]
    assert nino.score == values["n"] + values["i"] + values["ñ"] + values["o"] == 11
    board = Board.from_tiles([list("niño")], alphabet=SPANISH)
    assert path_score(board, [0, 1, 2, 3], "ruzzle") == 11
    # Italian tiles fold their accents: a typed "à" is an "a" tile.
    spec, result = solved({"kind": "ruzzle", "grid": ["càsa", "mare", "sole", "vino"], "dictionary": "italian"})
    assert spec.tiles()[0] == ["c", "a", "s", "a"] and "casa" in {s.word for s in result.solutions}
    assert sum(LETTER_VALUES["italian"][ch] for ch in "casa") == next(
        s.score for s in result.solutions if s.word == "casa")


def test_ruzzle_best_board_in_italian() -> None:
    _, result = solved({"kind": "ruzzle", "task": "best_board", "grid": ["casa", "mare", "sole", "vino"],
                        "dictionary": "italian", "iterations": 200, "seed": 3})
    assert result.solutions and all(ITALIAN.is_word(s.word) for s in result.solutions)


def test_letters_outside_the_alphabet_are_one_line_errors() -> None:
    with pytest.raises(InputError, match=r"tile 'ñ' holds 'ñ'; use letters a-z only"):
        parse_spec({"kind": "ruzzle", "grid": ["niño", "gato", "casa", "pera"]})
    with pytest.raises(InputError, match=r"holds '7'; use letters a-z and ñ \(spanish\) only"):
        parse_spec({"kind": "ruzzle", "grid": ["7abc", "gato", "casa", "pera"], "dictionary": "es"})
    with pytest.raises(InputError, match=r"side 1 'λab' holds 'λ'; use letters a-z, ä, ö and ü \(german\) only"):
        parse_spec({"kind": "letter_boxed", "sides": ["λab", "cde", "fgh", "ijk"], "dictionary": "de"})
    # German folds the Spanish ñ to n, as it folds every accent but its own.
    assert parse_spec({"kind": "letter_boxed", "sides": ["ñab", "cdé", "fgh", "ijk"], "dictionary": "de"}).sides[:2] == [
        "nab", "cde"]
    with pytest.raises(InputError, match=r"letters 'ñoatrsi' holds 'ñ'; use letters a-z only"):
        parse_spec({"kind": "spelling_bee", "letters": "ñoatrsi"})


# ---------------------------------------------------------------- the other kinds


@pytest.mark.parametrize("engine", ["native", "cpsat", "sat"])
def test_letter_boxed_with_an_enye(engine: str) -> None:
    _, result = solved({"kind": "letter_boxed", "sides": ["ñat", "ocr", "sie", "dlm"], "dictionary": "spanish",
                        "engine": engine})
    assert result.status == "optimal" and result.objective == 2
    assert "ñ" in "".join(result.solutions[0].words)


def test_letter_boxed_generates_german_boxes() -> None:
    _, result = solved({"kind": "letter_boxed", "task": "generate", "dictionary": "german", "seed": 5,
                        "attempts": 5, "puzzles": 1})
    assert result.solutions and all(GERMAN.is_word("".join(s.sides)) for s in result.solutions)


def test_ladders_through_accented_words() -> None:
    _, result = solved({"kind": "ladder", "start": "über", "target": "aber", "dictionary": "de"})
    assert result.solutions[0].words == ["über", "aber"]
    _, result = solved({"kind": "ladder", "start": "Niño", "target": "nada", "dictionary": "es", "mode": "shortest"})
    assert result.solutions[0].words[0] == "niño" and result.solutions[0].words[-1] == "nada"
    with pytest.raises(InputError, match="a ladder word is letters a-z only"):
        parse_spec({"kind": "ladder", "start": "niño", "target": "nada"})
    # WordNet definitions are English: refused for another language, not made up from a homograph.
    with pytest.raises(InputError, match="field 'define'.*English only; this dictionary is italian"):
        parse_spec({"kind": "ladder", "start": "casa", "target": "mare", "dictionary": "it", "define": True})


@pytest.mark.parametrize("engine", ["native", "cpsat"])
def test_spelling_bee_with_extra_letters(engine: str) -> None:
    _, result = solved({"kind": "spelling_bee", "letters": "ñoatrsi", "dictionary": "spanish", "engine": engine})
    words = set(result.solutions[0].words)
    assert "niño" not in words and {"ñora"} <= words or any("ñ" in w for w in words)
    _, german = solved({"kind": "spelling_bee", "letters": "übernat", "dictionary": "german", "engine": engine})
    assert all("ü" in w for w in german.solutions[0].words)


def test_spelling_bee_generates_italian_hives() -> None:
    _, result = solved({"kind": "spelling_bee", "task": "generate", "dictionary": "italian", "puzzles": 2, "seed": 2})
    assert len(result.solutions) == 2


# ---------------------------------------------------------------- the command line, as a user runs it


def test_cli_dict_list_shows_the_four_languages(capsys: pytest.CaptureFixture[str]) -> None:
    done = main_of(capsys, "dict", "list", "--json")
    assert done.returncode == 0, done.stderr
    rows = {r["name"]: r for r in json.loads(done.stdout)}
    for language in LANGUAGES:
        assert rows[language]["words"] == len(load_lexicon(language))
    text = main_of(capsys, "dict", "list").stdout
    assert all(language in text for language in LANGUAGES)


def test_cli_ruzzle_italian(capsys: pytest.CaptureFixture[str]) -> None:
    done = main_of(capsys, "ruzzle", "casa", "mare", "sole", "vino", "--dict", "italian", "--json")
    assert done.returncode == 0, done.stderr
    words = {s["word"] for s in json.loads(done.stdout)["solutions"]}
    assert {"casa", "mare", "sole", "vino"} <= words


def test_cli_spanish_and_german_boards_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # as a user runs it: Ñ through a UTF-8 stdout and into the SVG file
    done = run_cli("ruzzle", "NIÑO", "gato", "casa", "pera", "--dict", "es", "--svg", str(tmp_path / "b.svg"))
    assert done.returncode == 0, done.stderr
    assert "Ñ" in done.stdout and "Ñ" in (tmp_path / "b.svg").read_text(encoding="utf-8")
    done = main_of(capsys, "ruzzle", "über", "haus", "land", "zeit", "--dict", "de", "--json")
    assert done.returncode == 0 and "über" in {s["word"] for s in json.loads(done.stdout)["solutions"]}
    refused = main_of(capsys, "ruzzle", "niño", "gato", "casa", "pera")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.strip().splitlines() == [
        "cpwords: error: command line: field 'grid', value ['niño', 'gato', 'casa', 'pera']: "
        "row 1: tile 'ñ' holds 'ñ'; use letters a-z only"]


def test_cli_other_kinds_and_yaml(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    done = main_of(capsys, "letter-boxed", "ñat", "ocr", "sie", "dlm", "--dict", "spanish")
    assert done.returncode == 0, done.stderr
    done = main_of(capsys, "ladder", "über", "aber", "--dict", "german")
    assert done.returncode == 0 and "Aber" in done.stdout
    done = main_of(capsys, "spelling-bee", "ñoatrsi", "--dict", "es", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["count"] > 0
    done = main_of(capsys, "dict", "info", "Città", "--dict", "it", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["word"] == "citta"
    # A user list in a language, from YAML (its path read from the YAML file's folder).
    (tmp_path / "parole.txt").write_text("# mie parole\ncasa\nmare\nsole\nvino\nCittà\n", encoding="utf-8")
    (tmp_path / "board.yaml").write_text(
        "kind: ruzzle\ngrid: [casa, mare, sole, vino]\ndictionary: {path: parole.txt, language: italian}\n",
        encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    done = main_of(capsys, "solve", "board.yaml", "--json")
    assert done.returncode == 0, done.stderr
    assert {s["word"] for s in json.loads(done.stdout)["solutions"]} == {"casa", "mare", "sole", "vino"}
    (tmp_path / "bad.yaml").write_text("kind: ruzzle\ngrid: [abcd]\ndictionary: {words: [a], language: xx}\n")
    done = main_of(capsys, "solve", "bad.yaml")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "dictionary.language" in done.stderr and "unknown language" in done.stderr


@pytest.mark.parametrize("engine", ["native", "cpsat", "sat"])
def test_word_grid_fill_with_an_enye(engine: str) -> None:
    given = ["niño?", "?#?#?", "?????", "?#?#?", "?????"]
    _, result = solved({"kind": "word_grid", "shape": "gridle-5x5", "task": "fill", "dictionary": "spanish",
                        "given": given, "engine": engine})
    rows = result.solutions[0].rows
    assert rows[0].startswith("niño") and all(SPANISH.is_word(w) for w in result.solutions[0].words)
    with pytest.raises(InputError, match="given row 1 \\('niño\\?'\\) has 'ñ'; use letters a-z"):
        parse_spec({"kind": "word_grid", "shape": "gridle-5x5", "task": "fill", "given": given})


def test_word_grid_puzzle_in_german() -> None:
    _, result = solved({"kind": "word_grid", "shape": "gridle-5x5", "task": "puzzle", "count": 1, "seed": 2,
                        "dictionary": "german"})
    assert result.solutions and all(GERMAN.is_word(w) for w in result.solutions[0].words)
