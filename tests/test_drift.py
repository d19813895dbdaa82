"""Code drift: memories anchored to the code they describe go stale when that code changes,
obsolete when it goes; reformatting alone changes nothing; stale memories rank down in recall
and in what the prompt hook injects, with a marker; confirming re-anchors them. Real git
repositories in tmp_path, a real SQLite store, the real hook entry point."""

# ruff: noqa: F811  (the env fixture comes from tests.test_hooks)

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from kenning import Kenning
from kenning.drift import code
from kenning.places.lean import journal_dir
from tests.test_hooks import env  # noqa: F401  (the hooks' environment fixture)

HOOK = Path(sys.executable).parent / "kenning-hook"
KENNING = Path(sys.executable).parent / "kenning"

BILLING = '''"""Billing."""


def compute_vat(amount):
    # the standard rate
    return amount * 0.2


def total(items):
    return sum(items)
'''
VAT_MEMORY = "src/billing.py computes VAT with a fixed 20 % rate in compute_vat()"


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def commit(root: Path, message: str) -> str:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)
    return git(root, "rev-parse", "--short=7", "HEAD")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    git(root, "init", "-q")
    git(root, "config", "user.email", "t@example.com")
    git(root, "config", "user.name", "t")
    (root / "src" / "billing.py").write_text(BILLING)
    (root / "README.md").write_text("hello\n")
    commit(root, "init")
    return root


def kenning_for(tmp_path: Path, root: Path, project: str = "proj") -> Kenning:
    k = Kenning(tmp_path / "k.db", project=project, embedder=None)
    k.project_root = root
    return k


# -- the pure core -------------------------------------------------------------------------------

def test_python_reformatting_and_comments_do_not_change_a_fingerprint() -> None:
    reformatted = BILLING.replace("return amount * 0.2", "return (amount\n            * 0.2)")
    reformatted = reformatted.replace("# the standard rate", "# VAT, see the tax office")
    assert code.symbols("b.py", reformatted) == code.symbols("b.py", BILLING)
    changed = code.symbols("b.py", BILLING.replace("0.2", "0.25"))
    before = code.symbols("b.py", BILLING)
    assert changed is not None and before is not None
    assert changed["compute_vat"] != before["compute_vat"]
    assert changed["total"] == before["total"]
    assert code.symbols("b.py", "def broken(:\n") is None  # no verdict on unparsable code


@pytest.mark.parametrize("path, source, edit, names", [
    ("cart.ts", "// cart\nexport function computeVat(x: number): number {\n  return x * 0.2;\n}\n"
     "export class Cart {\n  add(item: Item): void { this.items.push(item); }\n"
     "  total(): number {\n    const s = \"}\";\n    return 0;\n  }\n}\n"
     "export const helper = (a: number) => { return a };\n",
     ("return 0;", "return 1;"), {"computeVat", "Cart", "Cart.add", "Cart.total", "helper"}),
    ("cart.go", "package cart\n\n// ComputeVat does it\nfunc ComputeVat(x float64) float64 {\n"
     "\treturn x * 0.2\n}\n\ntype Cart struct {\n\titems []int\n}\n\n"
     "func (c *Cart) Total() int { return len(c.items) }\n",
     ("len(c.items)", "len(c.items) + 1"), {"ComputeVat", "Cart", "Cart.Total"}),
    ("cart.rs", "pub fn compute_vat(x: f64) -> f64 { x * 0.2 }\n"
     "pub struct Cart<'a> { items: &'a [u8] }\nimpl<'a> Cart<'a> {\n"
     "    pub fn total(&self) -> usize { self.items.len() }\n}\n",
     ("self.items.len()", "0"), {"compute_vat", "Cart", "Cart.total"}),
])
def test_brace_languages_find_symbols_and_ignore_layout(
        path: str, source: str, edit: tuple[str, str], names: set[str]) -> None:
    table = code.symbols(path, source)
    assert table is not None and set(table) == names
    relaid = source.replace("\n  ", "\n      ").replace("{ ", "{\n").replace(" }", "\n}")
    assert code.symbols(path, relaid) == table
    edited = code.symbols(path, source.replace(*edit))
    assert edited is not None
    assert {n for n in names if edited[n] != table[n]} and any(
        edited[n] == table[n] for n in names)


def test_formatter_choices_are_layout_too() -> None:
    ts = "export function total(items: number[], scale = 1): number {\n  return sum(items);\n}\n"
    prettier = ("export function total(\n  items: number[],\n  scale = 1,\n): number {\n"
                "  return sum(items)\n}\n")
    assert code.symbols("a.ts", prettier) == code.symbols("a.ts", ts)
    assert code.symbols("a.ts", ts.replace("sum(items)", "sum(items) * scale")) != \
        code.symbols("a.ts", ts)
    rs = "pub fn f(a: i64, b: i64) -> i64 { a + b }\n"
    rustfmt = "pub fn f(\n    a: i64,\n    b: i64,\n) -> i64 {\n    a + b\n}\n"
    assert code.symbols("a.rs", rustfmt) == code.symbols("a.rs", rs)


def test_docstrings_quote_marks_and_arrow_parentheses_are_not_changes() -> None:
    documented = BILLING.replace("def compute_vat(amount):\n",
                                 'def compute_vat(amount):\n    """Add the tax."""\n')
    reworded = documented.replace("Add the tax.", "Return the amount with VAT, rounded.")
    assert code.symbols("b.py", documented) == code.symbols("b.py", BILLING)
    assert code.symbols("b.py", reworded) == code.symbols("b.py", BILLING)
    assert code.file_fingerprint("b.py", reworded.replace('"""Billing."""', '"""Money."""')) \
        == code.file_fingerprint("b.py", BILLING)
    # a string that is not a docstring is code
    assert code.symbols("b.py", BILLING.replace("return amount * 0.2",
                                                'log("vat")\n    return amount * 0.2')) \
        != code.symbols("b.py", BILLING)
    js = "export const greet = (name) => {\n  return 'hi ' + name + \"'s\";\n};\n"
    prettier = "export const greet = name => {\n  return \"hi \" + name + \"'s\";\n};\n"
    assert code.symbols("a.js", prettier) == code.symbols("a.js", js)
    assert code.symbols("a.js", js.replace("hi ", "hello ")) != code.symbols("a.js", js)


@pytest.mark.parametrize("path, source, name, edit, other", [
    # a Python module constant and a class attribute with its documenting string
    ("conf.py", "TIMEOUT = 30\nRETRIES = 3\n\n\nclass Config:\n    debug = False\n"
     "    \"\"\"Print more.\"\"\"\n", "TIMEOUT", ("30", "60"), ("RETRIES = 3", "RETRIES = 4")),
    ("conf.py", "class Config:\n    debug = False\n    \"\"\"Print more.\"\"\"\n    level = 1\n",
     "Config.debug", ("False", "True"), ("Print more.", "Print more lines.")),
    # a TypeScript constant holding a regular expression whose braces are not code
    ("a.ts", "const NAME_RE = /^[a-z]{1,8}$/;\nconst PATH_RE = /^\\/[^;]{0,99}$/;\n"
     "export function check(s: string, opts: Opts = {}) {\n  return NAME_RE.test(s);\n}\n",
     "PATH_RE", ("{0,99}", "{0,50}"), ("{1,8}", "{1,9}")),
    # a parameter's default "= {}" is not the function's body
    ("b.ts", "export function box(text: string, opts: Opts = {}) {\n  const w = text.length;\n"
     "  return w;\n}\nexport function other() {\n  return 1;\n}\n",
     "box", ("text.length", "strip(text).length"), ("return 1", "return 2")),
    # CommonJS: a class assigned to module.exports, and its methods
    ("app.js", "module.exports = class App extends Emitter {\n  listen() {\n    return 1;\n  }\n"
     "  close() {\n    return 2;\n  }\n};\n", "App.listen", ("return 1", "return 3"),
     ("return 2", "return 4")),
    # Go: grouped constants and type aliases read the same alone and in a group
    ("c.go", "package c\n\nconst (\n\tMaxSize = 10\n\tMinSize = 1\n)\n\ntype ID = int64\n",
     "MaxSize", ("10", "20"), ("MinSize = 1", "MinSize = 2")),
    # Rust: a string continued on the next line, a constant, and a trait implementation
    ("d.rs", "const LIMIT: u64 = 5;\nfn warn() -> String {\n"
     "    format!(\"{}. \\\n    don't\", 1)\n}\n"
     "impl Default for Builder {\n    fn default() -> Self { Builder { on: true } }\n}\n",
     "Builder.Default", ("on: true", "on: false"), ("LIMIT: u64 = 5", "LIMIT: u64 = 6")),
])
def test_values_and_regions_are_symbols_of_their_own(path: str, source: str, name: str,
                                                      edit: tuple[str, str],
                                                      other: tuple[str, str]) -> None:
    table = code.symbols(path, source)
    assert table is not None and name in table
    changed = code.symbols(path, source.replace(*edit))
    elsewhere = code.symbols(path, source.replace(*other))
    assert changed is not None and changed[name] != table[name]
    assert elsewhere is not None and elsewhere[name] == table[name]


@pytest.mark.parametrize("path, source, added, edit", [
    ("w.py", "import os\n\nLIMIT = 3\n\n\ndef a():\n    return LIMIT\n",
     "import sys\n\n\ndef b():\n    return sys.argv\n", ("return LIMIT", "return 4")),
    ("w.ts", "import { x } from './x';\n\nexport function a(): number {\n  return x;\n}\n",
     "import { y } from './y';\nexport function b(): number {\n  return y;\n}\n",
     ("return x;", "return x + 1;")),
    ("w.go", "package w\n\nimport \"os\"\n\nfunc A() string {\n\treturn os.Args[0]\n}\n",
     "func B() int {\n\treturn 2\n}\n", ("os.Args[0]", "os.Args[1]")),
    ("w.rs", "use std::env;\n\npub fn a() -> usize {\n    env::args().count()\n}\n",
     "pub fn b() -> usize {\n    2\n}\n", ("count()", "count() + 1")),
])
def test_a_whole_file_anchor_is_not_changed_by_new_symbols(path: str, source: str, added: str,
                                                           edit: tuple[str, str]) -> None:
    whole = code.Spot(path, "", code.file_fingerprint(path, source))
    assert whole.fingerprint.startswith(code.WHOLE)
    grown = source + "\n" + added
    assert code.judge(whole, grown) == code.Verdict(code.FRESH, None, whole.fingerprint)
    assert code.judge(whole, grown.replace(*edit)).state == code.STALE
    assert code.judge(whole, source.replace(*edit)).state == code.STALE


@pytest.mark.parametrize("path, source, name, through, elsewhere", [
    # a helper the function calls, a constant it reads; another function is not its concern
    ("h.py", "LIMIT = 3\n\n\ndef _clip(x):\n    return min(x, LIMIT)\n\n\ndef size(x):\n"
     "    return _clip(x) + 1\n\n\ndef other():\n    return 5\n", "size",
     ("min(x, LIMIT)", "max(x, LIMIT)"), ("return 5", "return 6")),
    ("h.py", "class Q:\n    def add(self, x):\n        return self._push(x)\n\n"
     "    def _push(self, x):\n        return [x]\n\n    def size(self):\n        return 0\n",
     "Q.add", ("return [x]", "return (x,)"), ("return 0", "return 1")),
    ("h.ts", "const LIMIT = 1024;\nfunction fill(n: number) {\n"
     "  if (n > LIMIT) throw new Error();\n}\n"
     "export function nanoid(n = 21) {\n  fill(n);\n  return n;\n}\n"
     "export function other() {\n  return 1;\n}\n", "nanoid", ("n > LIMIT", "n >= LIMIT"),
     ("return 1", "return 2")),
])
def test_a_symbol_changes_with_what_it_uses_in_its_file(path: str, source: str, name: str,
                                                          through: tuple[str, str],
                                                          elsewhere: tuple[str, str]) -> None:
    table = code.symbols(path, source)
    assert table is not None
    assert (code.symbols(path, source.replace(*through)) or {})[name] != table[name]
    assert (code.symbols(path, source.replace(*elsewhere)) or {})[name] == table[name]


def test_a_class_is_not_changed_by_members_added_to_it() -> None:
    py = "class Stats:\n    default = 0.0\n\n    def mean(self):\n        return 1\n"
    grown = py + "\n    mode = 2\n\n    def median(self):\n        return 2\n"
    spot = code.Spot("s.py", "Stats", (code.symbols("s.py", py) or {})["Stats"])
    assert code.judge(spot, grown) == code.Verdict(code.FRESH, None, spot.fingerprint)
    assert code.judge(spot, grown.replace("return 1", "return 3")).state == code.STALE
    assert code.judge(spot, py.replace("default = 0.0", "default = None")).state == code.STALE
    go = "package s\n\ntype Cart struct {\n\tn int\n}\n\nfunc (c *Cart) Total() int {\n" \
        "\treturn c.n\n}\n"
    spot = code.Spot("s.go", "Cart", (code.symbols("s.go", go) or {})["Cart"])
    more = go + "\nfunc (c *Cart) Empty() bool {\n\treturn c.n == 0\n}\n"
    assert code.judge(spot, more).state == code.FRESH
    assert code.judge(spot, go.replace("return c.n", "return c.n + 1")).state == code.STALE


def test_a_typescript_overload_is_not_the_function() -> None:
    ts = ("export function v4(o?: Opts): string;\nexport function v4(o?: Opts, b?: Buf): Buf;\n"
          "export function v4(o?: Opts, b?: Buf): string | Buf {\n  o ??= {};\n  return x(o);\n}\n")
    before = code.symbols("v4.ts", ts) or {}
    assert (code.symbols("v4.ts", ts.replace("  o ??= {};\n", "")) or {})["v4"] != before["v4"]


def test_names_written_with_arguments_or_two_parts_find_their_symbol() -> None:
    table = {"Permanent": "1", "PermanentError": "2", "Error": "3", "Error.Display": "4",
             "glob": "5"}
    said = code.mentions("`Permanent(err)` hands back a *PermanentError; retry(n) too")
    assert "Permanent" in said.symbols and "retry" in said.symbols
    rs = ("pub enum Error { Unit }\npub struct Other;\n"
          "impl fmt::Display for Error {\n    fn fmt(&self) -> u8 { 1 }\n}\n"
          "impl fmt::Display for Other {\n    fn fmt(&self) -> u8 { 2 }\n}\n")
    spots = code.spots("the `Display` impl for `Error` prints offsets", {"e.rs": rs})
    assert [s.symbol for s in spots] == ["Error.Display"]
    assert code.written_plainly("when a glob component has wildcards", table) == []


def test_more_formatter_choices_are_layout() -> None:
    py = "def f():\n    return u'x' + \"y\"\n"
    assert code.symbols("a.py", py.replace("u'x'", "'x'")) == code.symbols("a.py", py)
    tsx = "export function Loader(p: { visible: boolean, className?: string }) {\n  return 1;\n}\n"
    assert code.symbols("a.tsx", tsx.replace("boolean,", "boolean;")) == code.symbols("a.tsx",
                                                                                      tsx)
    rs = "macro_rules! t {\n    ($a:ident) => {\n        fn $a() {}\n    }\n}\nfn g() {}\n"
    assert code.file_fingerprint("a.rs", rs.replace("    }\n}", "    };\n}")) == \
        code.file_fingerprint("a.rs", rs)


def test_class_fields_holding_arrow_functions_are_methods() -> None:
    ts = ("class Observer {\n  toasts = [];\n  dismiss = (id?: number) => {\n    return id;\n  };\n"
          "  custom = (data: Data) => {\n    return data.id;\n  };\n}\n")
    table = code.symbols("s.ts", ts) or {}
    assert {"Observer.dismiss", "Observer.custom"} <= set(table)
    edited = code.symbols("s.ts", ts.replace("return data.id", "return data.key")) or {}
    assert edited["Observer.dismiss"] == table["Observer.dismiss"]
    assert edited["Observer.custom"] != table["Observer.custom"]


def test_manifests_in_a_requirements_folder_and_cargo_targets() -> None:
    from kenning.drift import manifests

    assert manifests.is_manifest("requirements/tests.txt")
    assert not manifests.is_manifest("docs/tests.txt")
    cargo = ('[package]\nname = "t"\n[target.\'cfg(unix)\'.dependencies]\n'
             'getrandom = { version = "0.3", optional = true }\n')
    table = manifests.declared("Cargo.toml", cargo) or {}
    assert "getrandom" in table
    assert manifests.named("it takes getrandom only from the 0.3 series", table) == [
        "getrandom"]
    assert manifests.named("getrandom is random enough for us", table) == []


def test_python_import_order_is_layout() -> None:
    source = "import sys\nimport os\nfrom a import b, c\n\n\ndef main():\n    import json\n" \
        "    import csv\n    return os.sep\n"
    isorted = "import os\nimport sys\nfrom a import c\nfrom a import b\n\n\ndef main():\n" \
        "    import csv\n    import json\n    return os.sep\n"
    assert code.symbols("m.py", isorted) == code.symbols("m.py", source)
    assert code.file_fingerprint("m.py", isorted) == code.file_fingerprint("m.py", source)
    assert code.file_fingerprint("m.py", source.replace("os.sep", "os.linesep")) != \
        code.file_fingerprint("m.py", source)


def test_names_written_as_plain_words_are_found_in_a_named_file() -> None:
    table = {"Client": "1", "Client.Do": "2", "parse": "3", "Router": "4", "Cache.get": "5",
             "Builder.Default": "6", "Builder": "7"}
    assert code.written_plainly("In client.go the Do method retries twice", table) == \
        ["Client.Do"]
    assert code.written_plainly("the parse function skips blank lines", table) == ["parse"]
    assert code.written_plainly("we parse the file twice", table) == []  # a verb, not a name
    assert code.written_plainly("app.ts: the Router mounts /api", table) == ["Router"]
    assert code.written_plainly("Router mounts /api", table) == []  # a sentence's first word
    assert code.written_plainly("Cache#get returns None on a miss", table) == ["Cache.get"]
    assert code.written_plainly("the Builder's Default turns colours on", table) == \
        ["Builder.Default"]
    # beside code-style names, only plain ones a word marks as code
    assert code.written_plainly("the parse declaration takes a Router", table,
                                beside_kind_only=True) == ["parse"]


def test_a_manifest_the_memory_names_anchors_the_dependencies_it_names(tmp_path: Path,
                                                                       repo: Path) -> None:
    (repo / "pyproject.toml").write_text(
        '[project]\nname = "x"\nrequires-python = ">=3.9"\ndependencies = [\n'
        '  # parsing\n  "tomli>=1; python_version<\'3.11\'",\n  "click>=8",\n]\n')
    (repo / "requirements.txt").write_text("# pinned\nrequests==2.31.0\nidna>=3\n")
    commit(repo, "manifests")
    with kenning_for(tmp_path, repo) as k:
        tomli = k.remember("In pyproject.toml tomli is only installed before Python 3.11",
                           type="context")
        pinned = k.remember("we pin `requests` ==2.31.0 until the proxy bug is fixed",
                            type="decision")
        assert [a.symbol for a in k.anchors(tomli.id)] == ["tomli"]
        assert [(a.path, a.symbol) for a in k.anchors(pinned.id)] == [
            ("requirements.txt", "requests")]
        (repo / "pyproject.toml").write_text(
            (repo / "pyproject.toml").read_text().replace("# parsing", "# parsing TOML")
            .replace("click>=8", "click>=8.1"))
        (repo / "requirements.txt").write_text("# pinned\nrequests==2.32.3\nidna>=3\n")
        commit(repo, "bumps")
        k.check_drift()
        assert k.get(tomli.id).drift is None  # a comment and another dependency changed
        assert k.get(pinned.id).drift_reason.startswith(
            "requirements.txt: requests ==2.31.0 -> ==2.32.3")


def test_an_anchor_made_by_the_first_scheme_is_judged_by_it_and_then_upgraded() -> None:
    documented = BILLING.replace("def compute_vat(amount):\n",
                                 'def compute_vat(amount):\n    """Add the tax."""\n')
    first = code.symbols("b.py", documented, legacy=True)
    assert first is not None and code.is_legacy(first["compute_vat"])
    spot = code.Spot("b.py", "compute_vat", first["compute_vat"])
    same = code.judge(spot, documented)
    assert same.state == code.FRESH and same.fingerprint == \
        (code.symbols("b.py", documented) or {})["compute_vat"]
    # judged by the scheme it was made with: a docstring edit still reads as a change to it
    assert code.judge(spot, documented.replace("Add", "Adds")).state == code.STALE
    whole = code.Spot("b.py", "", code.file_fingerprint("b.py", documented, legacy=True))
    assert code.judge(whole, documented).fingerprint == code.file_fingerprint("b.py", documented)


def test_mentions_find_paths_and_symbols() -> None:
    said = code.mentions("src/billing.py computes VAT in compute_vat(); see `Cart.total` in "
                         "web/cart.ts:addItem and ../secrets.py")
    assert set(said.paths) == {"src/billing.py", "web/cart.ts", "../secrets.py"}
    assert {"compute_vat", "Cart.total", "addItem"} <= set(said.symbols)
    assert code.mentions("no code here, just words.").paths == ()


def test_binary_huge_and_foreign_text_are_not_anchored() -> None:
    assert code.unusable(b"\x00\x01abc") == "binary"
    assert code.unusable(b"x" * (code.MAX_FILE_BYTES + 1)) is not None
    assert code.unusable(b"\xff\xfe bad") == "not UTF-8 text"
    assert code.unusable(b"def f():\n    pass\n") is None


# -- anchoring and checking in a real repository -------------------------------------------------

def test_a_changed_symbol_marks_the_memory_stale_with_the_commit(tmp_path: Path, repo: Path
                                                                ) -> None:
    with kenning_for(tmp_path, repo) as k:
        m = k.remember(VAT_MEMORY, type="decision")
        other = k.remember("total() in src/billing.py sums the items", type="context")
        assert [(a.path, a.symbol) for a in k.anchors(m.id)] == [("src/billing.py",
                                                                 "compute_vat")]
        assert k.check_drift()["stale"] == []

        (repo / "src" / "billing.py").write_text(BILLING.replace("0.2", "0.25"))
        sha = commit(repo, "new rate")
        report = k.check_drift()
        assert report["stale"] == [m.id]
        got = k.get(m.id).to_dict()
        assert got["stale"] is True and got["stale_reason"] == f"compute_vat changed in {sha}"
        assert k.get(other.id).drift is None  # its symbol did not change
        assert [r["id"] for r in k.stale()] == [m.id]

        # confirming re-anchors it to the code as it is now
        assert k.confirm(m.id).drift is None
        assert k.check_drift()["stale"] == [] and k.stale() == []


def test_reformatting_and_unrelated_edits_flag_nothing(tmp_path: Path, repo: Path) -> None:
    with kenning_for(tmp_path, repo) as k:
        m = k.remember(VAT_MEMORY, type="decision")
        (repo / "src" / "billing.py").write_text(
            BILLING.replace("return amount * 0.2", "return (\n        amount * 0.2\n    )")
            .replace("# the standard rate", "") + "\n\ndef unrelated():\n    return 3\n")
        (repo / "README.md").write_text("changed\n")
        commit(repo, "reformat")
        report = k.check_drift()
        assert report["read"] == 1 and report["stale"] == [] and k.get(m.id).drift is None


def test_an_uncommitted_change_says_so_and_a_revert_makes_it_fresh(tmp_path: Path, repo: Path
                                                                  ) -> None:
    with kenning_for(tmp_path, repo) as k:
        m = k.remember(VAT_MEMORY, type="decision")
        (repo / "src" / "billing.py").write_text(BILLING.replace("0.2", "0.19"))
        k.check_drift()
        assert k.get(m.id).drift_reason == "compute_vat changed (not committed yet)"
        (repo / "src" / "billing.py").write_text(BILLING)
        assert k.check_drift()["fresh_again"] == [m.id]
        assert k.get(m.id).drift is None


def test_renames_are_followed_and_deletions_make_obsolete(tmp_path: Path, repo: Path) -> None:
    (repo / "src" / "cart.py").write_text("def add(x):\n    return x\n")
    commit(repo, "cart")
    with kenning_for(tmp_path, repo) as k:
        m = k.remember(VAT_MEMORY, type="decision")
        by_name = k.remember("`compute_vat()` applies one fixed rate", type="decision")
        cart = k.remember("src/cart.py add() appends an item", type="context")
        assert [a.path for a in k.anchors(by_name.id)] == ["src/billing.py"]
        git(repo, "mv", "src/billing.py", "src/tax.py")
        (repo / "src" / "cart.py").unlink()
        sha = commit(repo, "move and delete")
        report = k.check_drift()
        assert report["moved"] == {"src/billing.py": "src/tax.py"}
        # the memory that gives the old path now misleads: stale, and says where the file went
        moved = k.get(m.id)
        assert (moved.drift, moved.drift_reason) == (
            "stale", f"src/billing.py moved to src/tax.py in {sha}")
        assert [a.path for a in k.anchors(m.id)] == ["src/tax.py"]
        # the one that names only the function still holds
        assert k.get(by_name.id).drift is None
        assert [a.path for a in k.anchors(by_name.id)] == ["src/tax.py"]
        gone = k.get(cart.id)
        assert (gone.drift, gone.drift_reason) == ("obsolete",
                                                   f"src/cart.py was deleted in {sha}")
        assert [r["id"] for r in k.stale()] == [cart.id, m.id]

        # a symbol removed from a file that stays
        (repo / "src" / "tax.py").write_text(BILLING.replace("def compute_vat", "def vat"))
        k.check_drift()
        assert k.get(by_name.id).drift_reason == "compute_vat was removed from src/tax.py " \
            "(not committed yet)"


def test_confirming_a_memory_whose_file_moved_gives_the_new_path(tmp_path: Path,
                                                                  repo: Path) -> None:
    with kenning_for(tmp_path, repo) as k:
        m = k.remember(VAT_MEMORY, type="decision", topic="billing.py")
        git(repo, "mv", "src/billing.py", "src/tax.py")
        commit(repo, "move")
        k.check_drift()
        assert k.get(m.id).drift == "stale"
        confirmed = k.confirm(m.id)
        assert confirmed.content == VAT_MEMORY.replace("src/billing.py", "src/tax.py")
        assert confirmed.topic == "tax.py"  # the bare name too: the move renamed the file
        assert confirmed.drift is None
        assert [(a.path, a.symbol) for a in k.anchors(m.id)] == [("src/tax.py", "compute_vat")]
        assert code.with_path("see src/billing.py and src/billing.pyc", "src/billing.py",
                              "src/tax.py") == "see src/tax.py and src/billing.pyc"


def test_a_re_recorded_memory_is_re_anchored(tmp_path: Path, repo: Path) -> None:
    with kenning_for(tmp_path, repo) as k:
        m = k.remember(VAT_MEMORY, type="decision")
        (repo / "src" / "billing.py").write_text(BILLING.replace("0.2", "0.25"))
        k.check_drift()
        assert k.get(m.id).stale
        again = k.remember(VAT_MEMORY, type="decision")
        assert again.id == m.id and not k.get(m.id).stale


def test_bad_input_never_crashes_nor_flags_falsely(tmp_path: Path, repo: Path) -> None:
    (repo / "data.py").write_bytes(b"\x00\x01binary")
    (repo / "big.py").write_text("x = 1\n" * (code.MAX_FILE_BYTES // 6 + 10))
    outside = tmp_path / "outside.py"
    outside.write_text("def f():\n    return 1\n")
    (repo / "src" / "link.py").symlink_to(outside)
    with kenning_for(tmp_path, repo) as k:
        for text in ("data.py holds the fixtures", "big.py is generated",
                     f"{outside} and ../outside.py and src/link.py hold f()",
                     "src/missing.py does not exist yet", "/etc/passwd.py is no code of ours"):
            m = k.remember(text, type="context")
            assert k.anchors(m.id) == [], text
        assert k.check_drift()["anchors"] == 0

    # not a git repository: anchored by content, checked by content, no commit in the reason
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "util.py").write_text("def helper():\n    return 1\n")
    with Kenning(tmp_path / "plain.db", project="plain", embedder=None) as k:
        k.project_root = plain
        m = k.remember("util.py helper() returns one", type="context")
        assert k.anchors(m.id)[0].commit is None
        (plain / "util.py").write_text("def helper():\n    return 2\n")
        k.check_drift()
        assert k.get(m.id).drift_reason == "helper changed"
        # a directory that is not the project's (none of its anchored files there): no verdict
        (plain / "more.py").write_text("def other():\n    return 1\n")
        other = k.remember("more.py other() returns one", type="context")
        k.project_root = tmp_path / "home-dir"
        k.project_root.mkdir()
        report = k.check_drift()
        assert "not checked" in report["notes"][0]
        assert k.get(other.id).drift is None and k.get(m.id).drift == "stale"
        k.project_root = plain
        (plain / "util.py").unlink()
        k.check_drift()
        assert k.get(m.id).drift == "obsolete" and k.get(other.id).drift is None

    # a memory written with no project directory: nothing anchored, the check says why
    with Kenning(tmp_path / "none.db", project="elsewhere", embedder=None) as k:
        k.remember(VAT_MEMORY, type="decision")
        assert k.check_drift(Path("/")) is not None


def test_detached_head_and_shallow_clone(tmp_path: Path, repo: Path) -> None:
    git(repo, "checkout", "-q", "--detach")
    with kenning_for(tmp_path, repo) as k:
        m = k.remember(VAT_MEMORY, type="decision")
        assert k.anchors(m.id)[0].commit == git(repo, "rev-parse", "HEAD")
        (repo / "src" / "billing.py").write_text(BILLING.replace("0.2", "0.3"))
        sha = commit(repo, "on a detached head")
        k.check_drift()
        assert k.get(m.id).drift_reason == f"compute_vat changed in {sha}"

    # a shallow clone without the anchor's commit: a missing file gets no verdict
    (repo / "src" / "billing.py").write_text(BILLING)
    commit(repo, "back")
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow))
    with Kenning(tmp_path / "s.db", project="s", embedder=None) as k:
        k.project_root = shallow
        m = k.remember(VAT_MEMORY, type="decision")
        anchors = k.anchors(m.id)
        assert anchors
        k.store.set_anchors({m.id: [a.__class__(**{**{f: getattr(a, f) for f in (
            "memory_id", "path", "symbol", "fingerprint", "stat", "state", "reason",
            "anchored_at", "checked_at")}, "commit": "0" * 40}) for a in anchors]})
        (shallow / "src" / "billing.py").unlink()
        report = k.check_drift()
        assert k.get(m.id).drift is None
        assert any("cannot say whether it moved" in n for n in report["notes"])


# -- the effect: ranking, injection, the CLI ---------------------------------------------------

def test_stale_memories_rank_below_fresh_ones_in_recall(tmp_path: Path, repo: Path) -> None:
    (repo / "src" / "tax.py").write_text("def compute_tax(amount):\n    return amount * 0.2\n")
    commit(repo, "tax")
    with kenning_for(tmp_path, repo) as k:
        a = k.remember("src/billing.py compute_vat applies the VAT rate to an amount",
                       type="context")
        b = k.remember("src/tax.py compute_tax applies the VAT rate to an amount",
                       type="context")
        first = [h.memory.id for h in k.recall("VAT rate amount", k=2)]
        (repo / "src" / "billing.py").write_text(BILLING.replace("0.2", "0.25"))
        (repo / "src" / "tax.py").write_text("def compute_tax(amount):\n    return amount\n")
        commit(repo, "rates")
        k.check_drift()
        assert k.get(a.id).stale and k.get(b.id).stale
        k.confirm(first[1])  # the one that was behind still holds: the one ahead is stale
        hits = k.recall("VAT rate amount", k=2, explain=True)
        assert [h.memory.id for h in hits] == [first[1], first[0]]
        assert hits[1].parts is not None and hits[1].parts["drift"] == 0.6
        k.confirm(first[0])
        assert [h.memory.id for h in k.recall("VAT rate amount", k=2)] == first


def test_the_prompt_hook_ranks_drift_as_recall_does() -> None:
    from dataclasses import replace

    from kenning.models import Category, Memory, MemoryType, Scope
    from kenning.promptindex import inject
    from kenning.ranking import RankWeights, final_scores

    now = 1_780_000_000_000
    base = Memory(id="m0", type=MemoryType.PATTERN, topic=None, summary="s", content="s",
                  category=Category.PROJECT_PATTERNS, tags=(), source=None, confidence=0.7,
                  outcome=None, outcome_reason=None, project="p", scope=Scope.PROJECT,
                  agent=None, created_at=now - 1000, updated_at=now - 1000,
                  last_accessed_at=None, access_count=0, content_hash="h")
    pool = {m.id: m for m in (
        base, replace(base, id="m1", summary="t", drift="stale",
                      drift_reason="f changed in abc1234"),
        replace(base, id="m2", summary="u", drift="obsolete", drift_reason="a.py was deleted"))}
    recall = final_scores({mid: {"relevance": 0.8} for mid in pool}, pool, now, RankWeights())
    hook = [inject.hit(m.id, m.type.value, None, m.summary, m.confidence, m.created_at,
                       m.updated_at, None, None, 0.8, 0.0, None, now, graph=False,
                       drift=m.drift, drift_reason=m.drift_reason) for m in pool.values()]
    assert [mid for mid, _, _ in recall] == ["m0", "m1", "m2"]
    assert [round(s, 4) for _, s, _ in recall] == [h["score"] for h in hook if h]
    text, _ = inject.render(inject.best(hook, 3), 4000)
    assert ("- [pattern] t (id m1; may be outdated, code changed since: f changed in "
            "abc1234)") in text
    assert "- [pattern] s (id m0)\n" in text


# -- through the hooks ---------------------------------------------------------------------------

def hook(event: str, repo: Path, env: dict[str, str], **fields: Any
         ) -> subprocess.CompletedProcess[bytes]:
    stdin = json.dumps({"session_id": "s1", "transcript_path": str(repo / "t.jsonl"),
                        "cwd": str(repo), "hook_event_name": event, **fields})
    done = subprocess.run([str(HOOK), event], input=stdin.encode(), env=env,
                          capture_output=True, timeout=120, cwd=repo)
    assert done.returncode == 0, done.stderr
    return done


def wait_until_stale(db: str, project: str, memory_id: str) -> None:
    """Wait for the detached check an edit started (a completion, not a speed, is awaited:
    the limit only stops a broken worker from hanging the suite)."""
    for _ in range(1200):
        with Kenning(db, project=project, embedder=None) as k:
            if k.get(memory_id).stale:
                return
        time.sleep(0.1)
    raise AssertionError(f"{memory_id} was never marked stale")


def injected(done: subprocess.CompletedProcess[bytes]) -> str:
    if not done.stdout:
        return ""
    return str(json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"])


def test_hooks_flag_drift_at_session_start_and_after_an_edit(tmp_path: Path, repo: Path,
                                                              env: dict[str, str]) -> None:
    from kenning.places.keys import project_key

    (repo / "src" / "cart.py").write_text("def add_item(cart, item):\n    cart.append(item)\n")
    commit(repo, "cart")
    project = project_key(str(repo.resolve()))
    with Kenning(env["KENNING_DB"], project=project, embedder=None) as k:
        k.project_root = repo
        vat = k.remember(VAT_MEMORY, type="decision")
        cart = k.remember("src/cart.py add_item appends the item to the cart in place",
                          type="pattern")
    hook("SessionStart", repo, env, source="startup")
    # (prompts in other conversations: the briefing's memories are not repeated in its own)
    shown = injected(hook("UserPromptSubmit", repo, env, session_id="p1",
                          prompt="how is the VAT rate computed"))
    assert vat.id in shown and "code changed since" not in shown

    # a commit between sessions: the next session start marks the memory
    (repo / "src" / "billing.py").write_text(BILLING.replace("0.2", "0.25"))
    sha = commit(repo, "rate")
    hook("SessionStart", repo, env, source="startup", session_id="s2")
    shown = injected(hook("UserPromptSubmit", repo, env, session_id="p2",
                          prompt="how is the VAT rate computed"))
    assert f"may be outdated, code changed since: compute_vat changed in {sha}" in shown

    # an edit through the agent's tools: checked by a worker the tool hook starts
    (repo / "src" / "cart.py").write_text("def add_item(cart, item):\n    return [*cart, item]\n")
    hook("PostToolUse", repo, env, session_id="s2", tool_name="Edit",
         tool_input={"file_path": str(repo / "src" / "cart.py")}, tool_response={})
    wait_until_stale(env["KENNING_DB"], project, cart.id)
    shown = injected(hook("UserPromptSubmit", repo, env, session_id="s3",
                          prompt="how does add_item change the cart"))
    assert cart.id in shown
    assert "may be outdated, code changed since: add_item changed (not committed yet)" in shown

    # show --json carries it, on both read paths; kenning stale lists both
    for args in (["show", cart.id, "--json"], ["show", cart.id[:12], "--json"]):
        out = subprocess.run([str(KENNING), *args], env={**env, "KENNING_PROJECT": project},
                             capture_output=True, text=True, cwd=repo, check=True).stdout
        got = json.loads(out)
        assert got["stale"] is True and got["stale_reason"].startswith("add_item changed")
    out = subprocess.run([str(KENNING), "stale", "--json"], env={**env,
                         "KENNING_PROJECT": project}, capture_output=True, text=True, cwd=repo,
                         check=True).stdout
    assert {r["id"] for r in json.loads(out)["memories"]} == {vat.id, cart.id}
    out = subprocess.run([str(KENNING), "confirm", vat.id], env={**env,
                         "KENNING_PROJECT": project}, capture_output=True, text=True, cwd=repo,
                         check=True).stdout
    assert "anchored to src/billing.py:compute_vat" in out
    doctor = subprocess.run([str(KENNING), "doctor", "--json"], env={**env,
                            "KENNING_PROJECT": project}, capture_output=True, text=True,
                            cwd=repo, check=True).stdout
    drift = json.loads(doctor)["code_drift"]
    assert (drift["stale"], drift["obsolete"]) == (1, 0)
    assert drift["stale_memories"][0]["id"] == cart.id


def test_an_edit_to_an_unanchored_file_opens_nothing(tmp_path: Path, repo: Path,
                                                     env: dict[str, str]) -> None:
    hook("PostToolUse", repo, env, tool_name="Write",
         tool_input={"file_path": str(repo / "README.md")}, tool_response={})
    assert not Path(env["KENNING_DB"]).exists()
    assert os.path.isdir(journal_dir(env["KENNING_DB"]))


def test_the_dashboard_lists_stale_memories(tmp_path: Path, repo: Path) -> None:
    from starlette.testclient import TestClient

    from kenning.web.app import create_app

    with kenning_for(tmp_path, repo) as k:
        m = k.remember(VAT_MEMORY, type="decision")
        fresh = k.remember("README.md greets the reader", type="context")
        (repo / "src" / "billing.py").write_text(BILLING.replace("0.2", "0.25"))
        sha = commit(repo, "rate")
        k.check_drift()
        c = TestClient(create_app(k), base_url="http://127.0.0.1")
        data = c.get("/api/stale").json()
        assert [(r["id"], r["stale_reason"]) for r in data["items"]] == [
            (m.id, f"compute_vat changed in {sha}")]
        assert data["items"][0]["anchors"][0]["symbol"] == "compute_vat"
        rows = {r["id"]: r for r in c.get("/api/memories").json()["items"]}
        assert rows[m.id]["drift"] == "stale" and rows[fresh.id]["drift"] is None
        assert c.get(f"/api/memories/{m.id}").json()["memory"]["stale"] is True


def test_memories_recorded_beside_edits_anchor_to_the_symbols_they_name(tmp_path: Path,
                                                                         repo: Path) -> None:
    from kenning.models import SessionEvent

    # two files define compute_vat: naming it alone says not which one is meant
    (repo / "src" / "old_billing.py").write_text(BILLING)
    commit(repo, "a second definition")
    with kenning_for(tmp_path, repo) as k:
        m = k.remember("compute_vat rounds half up before applying the rate", type="gotcha")
        vague = k.remember("the rate rounds half up", type="gotcha")
        assert k.anchors(m.id) == []  # ambiguous, and no file named: nothing to anchor to yet
        k.store.add_session_events([SessionEvent(
            "e1", "s1", "proj", 1, "tool", {"tool": "Edit", "file": str(repo / "src" /
                                                                         "billing.py")})])
        assert k.anchor([m.id, vague.id], session_id="s1") == {m.id: 1}
        assert [(a.path, a.symbol) for a in k.anchors(m.id)] == [("src/billing.py",
                                                                 "compute_vat")]
        assert k.anchors(vague.id) == []  # an edited file alone is no anchor


def test_a_symbol_named_without_its_file_is_found_in_the_repository(tmp_path: Path,
                                                                      repo: Path) -> None:
    (repo / "src" / "rates.py").write_text("RATE = 0.2\n\n\ndef lookup_rate(country):\n"
                                           "    return RATE\n")
    commit(repo, "rates")
    with kenning_for(tmp_path, repo) as k:
        m = k.remember("`compute_vat()` rounds half up before applying the rate",
                       type="gotcha")
        called = k.remember("lookup_rate ignores the country for now", type="gotcha")
        unknown = k.remember("`compute_tax()` is gone since the rewrite", type="gotcha")
        assert [(a.path, a.symbol) for a in k.anchors(m.id)] == [("src/billing.py",
                                                                 "compute_vat")]
        assert [(a.path, a.symbol) for a in k.anchors(called.id)] == [("src/rates.py",
                                                                      "lookup_rate")]
        assert k.anchors(unknown.id) == []  # defined nowhere: nothing to anchor to
        (repo / "src" / "billing.py").write_text(BILLING.replace("0.2", "0.25"))
        sha = commit(repo, "new rate")
        k.check_drift()
        assert k.get(m.id).drift_reason == f"compute_vat changed in {sha}"
        assert k.get(called.id).drift is None


def test_anchors_made_before_an_upgrade_are_not_flagged_by_it(tmp_path: Path, repo: Path
                                                               ) -> None:
    documented = BILLING.replace("def compute_vat(amount):\n",
                                 'def compute_vat(amount):\n    """Add the tax."""\n')
    (repo / "src" / "billing.py").write_text(documented)
    commit(repo, "docstring")
    with kenning_for(tmp_path, repo) as k:
        m = k.remember(VAT_MEMORY, type="decision")
        first = (code.symbols("src/billing.py", documented, legacy=True) or {})["compute_vat"]
        k.store.set_anchors({m.id: [a._replace(fingerprint=first, stat="0:0")
                                    for a in k.anchors(m.id)]})
        assert k.check_drift()["stale"] == [] and k.get(m.id).drift is None
        assert [a.fingerprint for a in k.anchors(m.id)] == [
            (code.symbols("src/billing.py", documented) or {})["compute_vat"]]
        (repo / "src" / "billing.py").write_text(documented.replace("Add", "Adds"))
        assert k.check_drift()["stale"] == []  # upgraded: a docstring is no change


def test_a_bare_file_name_is_found_in_the_repository(tmp_path: Path, repo: Path) -> None:
    with kenning_for(tmp_path, repo) as k:
        m = k.remember("billing.py computes VAT in compute_vat()", type="context")
        assert [(a.path, a.symbol) for a in k.anchors(m.id)] == [("src/billing.py",
                                                                 "compute_vat")]
        (repo / "lib").mkdir()
        (repo / "lib" / "billing.py").write_text(BILLING)
        commit(repo, "a second billing.py")
        two = k.remember("billing.py keeps amounts as floats", type="context")
        assert k.anchors(two.id) == []  # two files of that name: which one is not known


def test_confirm_needs_the_projects_directory(tmp_path: Path, repo: Path) -> None:
    from kenning.errors import ValidationError

    with kenning_for(tmp_path, repo) as k:
        m = k.remember(VAT_MEMORY, type="decision")
        k.project_root = tmp_path / "elsewhere"
        k.project_root.mkdir()
        with pytest.raises(ValidationError, match="is it the project's directory"):
            k.confirm(m.id)
        assert len(k.anchors(m.id)) == 1  # nothing dropped
        k.project_root = repo
        (repo / "src" / "billing.py").unlink()
        k.check_drift()
        assert k.get(m.id).drift == "obsolete"
        assert not k.confirm(m.id).stale and k.anchors(m.id) == []  # it holds without the code


def test_go_generics_and_indented_declarations() -> None:
    src = ("package s\n\ntype Stack[T any] struct {\n\titems []T\n}\n\n"
           "func (s *Stack[T]) Push(x T) {\n\ts.items = append(s.items, x)\n}\n")
    table = code.symbols("s.go", src)
    assert table is not None and set(table) == {"Stack", "Stack.Push"}
    indented = "\n".join("  " + line if line else line for line in src.split("\n"))
    assert code.symbols("s.go", indented) == table


def test_mcp_rows_say_the_code_changed(tmp_path: Path, repo: Path) -> None:
    from kenning.mcpserver import row

    with kenning_for(tmp_path, repo) as k:
        m = k.remember(VAT_MEMORY, type="decision")
        assert "code_changed_since" not in row(k.get(m.id))
        (repo / "src" / "billing.py").write_text(BILLING.replace("0.2", "0.25"))
        k.check_drift()
        assert row(k.get(m.id))["code_changed_since"] == "compute_vat changed (not committed yet)"


PYPROJECT = """[project]
name = "tidepool"
requires-python = ">=3.11"
dependencies = [
    "pydantic>=1.10,<2",  # v2 migration after the release
    "click>=8",
]
"""


def test_a_pinned_dependency_is_flagged_when_the_manifest_moves_it(tmp_path: Path, repo: Path
                                                                   ) -> None:
    """"Pin pydantic below 2 for now", recorded while pyproject.toml was edited, is anchored to
    pydantic's requirement there: a change to another dependency or a comment flags nothing,
    the pin lifted flags it with both requirements; a memory that only names the library is
    not anchored to its version."""
    from kenning.drift import manifests

    (repo / "pyproject.toml").write_text(PYPROJECT)
    commit(repo, "deps")
    with kenning_for(tmp_path, repo) as k:
        pin = k.remember("Pin pydantic below 2 for now: the v2 migration waits for the release",
                         type="decision")
        uses = k.remember("Models are pydantic classes; click parses the options",
                          type="context")
        k.anchor([pin.id, uses.id], hints=[str(repo / "pyproject.toml")])
        assert [(a.path, a.symbol) for a in k.anchors(pin.id)] == [("pyproject.toml",
                                                                   "pydantic")]
        assert k.anchors(uses.id) == []

        (repo / "pyproject.toml").write_text(PYPROJECT.replace('"click>=8"', '"click>=8.1"')
                                             .replace("after the release", "now"))
        assert k.check_drift()["stale"] == []
        (repo / "pyproject.toml").write_text(PYPROJECT.replace(">=1.10,<2", ">=2.7"))
        assert k.check_drift()["stale"] == [pin.id]
        assert k.get(pin.id).to_dict()["stale_reason"] == (
            "pyproject.toml: pydantic >=1.10,<2 -> >=2.7 (not committed yet)")

    assert manifests.declared("package.json", '{"dependencies": {"next": "14.2.4"}, '
                              '"engines": {"node": ">=18"}}') == {"next": "14.2.4",
                                                                   "node": ">=18"}
    assert manifests.declared("go.mod", "module x\n\ngo 1.22\n\nrequire (\n"
                              "\tgithub.com/jackc/pgx/v5 v5.6.0\n)\n") == {"go": "1.22",
                                                                          "pgx": "v5.6.0"}
    assert manifests.declared("Cargo.toml", '[package]\nrust-version = "1.74"\n'
                              '[dependencies]\nclap = { version = "4", features = ["derive"] }\n'
                              ) == {"rust": "1.74", "clap": '{"features": ["derive"], '
                                                            '"version": "4"}'}
    assert manifests.declared("pyproject.toml", "not = [toml") is None
    assert manifests.named("next week, bump next to 14.2.5", ["next"]) == ["next"]
    assert manifests.named("see you next week", ["next"]) == []
