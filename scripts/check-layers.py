#!/usr/bin/env python3
"""Fails when a file of a lower layer of Sources/Magma names a type of a higher one.

The layers (ARCHITECTURE.md) point one way: each folder may name the types of its own folder and
of the folders ranked below it, nothing else (folders of the same rank stand beside each other
and name neither). Types are the top-level `class`/`struct`/`enum`/`protocol`/`actor`/`typealias`
declarations of each folder; a reference is the type's name as a word in code (comments and
string literals are left out). Also: only Tokenizer/ imports CYajl, and the front door stays
small: at most FRONT_DOOR public static functions of JSONAdapter that are not deprecated, each
with a ```swift example in its doc comment.

Usage: scripts/check-layers.py [Sources/Magma]   (run by `make test`; exit 1 on a violation)
`KNOWN` lists the upward references not cut yet: a new one fails, and so does an entry that is
no longer true (the list only shrinks).
"""
import os, re, sys

# Folder (or a top-level file, by the layer it belongs to) -> rank. A layer names its own types and
# those of lower ranks; layers of the same rank stand beside each other and name neither.
LAYERS = {
    "Support": 0,        # what all share: the lock, the error, the options
    "Tokenizer": 1,      # the yajl boundary
    "Decoding": 2,       # the engine: frames, targets, codecs, the plan nodes the frames walk, the JSON writer
                         # and the value writers the codecs make
    "Encoding": 3,       # the property writers the plans make, the encode plan
    "Transformers": 4,   # the public transformers and the built-in codecs behind them
    "Mapping": 5,        # models, mappings, plans compiled from them
    "Codable": 6,        # MagmaDecoder / MagmaEncoder
    "FrontDoor": 7,      # JSONAdapter, JSONInput
    "Streaming": 8,      # records from arrays, NDJSON, files, in parallel (JSONAdapter's record entry points)
    "Archive": 8,        # versioned archives, through the front door
}
# Files at the top of Sources/Magma, by layer: JSONAdapter.swift and its JSONAdapter+Concern.swift files.
TOP_LEVEL = {"JSONAdapter.swift": "FrontDoor", "JSONInput.swift": "FrontDoor"}

# "Folder -> Type": upward references not cut yet (ARCHITECTURE.md, "Known gaps"). None today;
# the list may only shrink.
KNOWN = set(filter(None, """
""".split("\n")))

FRONT_DOOR = 20
ENTRY = re.compile(r"^    public static func (\w+)", re.M)

DECL = re.compile(r"^(?:(?:public|internal|private|fileprivate|final|open|package|indirect|nonisolated|@\w+(?:\([^)]*\))?)\s+)*"
                  r"(?:class|struct|enum|protocol|actor|typealias)\s+([A-Z]\w*)", re.M)
WORD = re.compile(r"\b([A-Z]\w*)\b")


def strip(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r'#"(?:.|\n)*?"#', '""', text)
    text = re.sub(r'"""(?:.|\n)*?"""', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"//[^\n]*", "", text)


def layer(root, path):
    parts = os.path.relpath(path, root).split(os.sep)
    if len(parts) > 1:
        return parts[0]
    return TOP_LEVEL.get(re.sub(r"\+\w+(?=\.swift$)", "", parts[0]), parts[0])


def front_door(root, files):
    """The non-deprecated public static functions of JSONAdapter's extensions, and the problems."""
    entries, problems = [], []
    for path in files:
        text = open(path, encoding="utf-8").read()
        for match in ENTRY.finditer(text):
            before = text[:match.start()]
            # The declaration the function is in: the last line before it that starts one.
            enclosing = re.findall(r"^[A-Za-z].*$", before, re.M)
            if not enclosing or not re.match(r"(?:public )?(?:extension|enum) JSONAdapter\b", enclosing[-1]):
                continue
            doc = re.search(r"(?:^    (?:///|@).*\n)*\Z", before, re.M).group(0)
            if "deprecated" in doc:
                continue
            where = f"{os.path.relpath(path, root)}:{before.count(chr(10)) + 1}"
            entries.append(where)
            if "```swift" not in doc:
                problems.append(f"{where}: JSONAdapter.{match.group(1)} has no ```swift example in its doc comment")
    if len(entries) > FRONT_DOOR:
        problems.append(f"JSONAdapter has {len(entries)} public entry points that are not deprecated, over {FRONT_DOOR}: "
                        + ", ".join(entries))
    return entries, problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "Sources", "Magma")
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".swift"))
    problems, code, owner = [], {}, {}
    for path in files:
        name = layer(root, path)
        if name not in LAYERS:
            problems.append(f"{os.path.relpath(path, root)}: folder or file {name!r} has no rank in scripts/check-layers.py")
            continue
        raw = open(path, encoding="utf-8").read()
        if re.search(r"^\s*(?:\w+\s+)?import\s+CYajl\b", raw, re.M) and name != "Tokenizer":
            problems.append(f"{os.path.relpath(path, root)}: imports CYajl outside Tokenizer/")
        code[path] = strip(raw)
        for match in DECL.finditer(code[path]):
            owner.setdefault(match.group(1), name)
    found = set()
    for path, text in code.items():
        mine = layer(root, path)
        for word in sorted(set(WORD.findall(text))):
            theirs = owner.get(word)
            if theirs is None or theirs == mine or LAYERS[theirs] < LAYERS[mine]:
                continue
            key = f"{mine} -> {word}"
            found.add(key)
            if key not in KNOWN:
                problems.append(f"{os.path.relpath(path, root)}: {mine} (rank {LAYERS[mine]}) names {word} of "
                                f"{theirs} (rank {LAYERS[theirs]})")
    entries, door = front_door(root, files)
    problems += door
    for key in sorted(KNOWN - found):
        problems.append(f"KNOWN lists {key!r}, which no longer occurs: remove it from scripts/check-layers.py")
    for p in problems:
        print(p)
    if problems:
        print(f"check-layers: {len(problems)} problem(s); the layers are in ARCHITECTURE.md")
        return 1
    print(f"check-layers: {len(files)} files, no reference points up; {len(entries)} front-door entry points "
          f"(at most {FRONT_DOOR}), each with an example")
    return 0


if __name__ == "__main__":
    sys.exit(main())
