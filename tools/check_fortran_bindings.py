#!/usr/bin/env python3
"""Interface drift guard between the C API (tcgemm.h, libtcgemm) and the Fortran bindings (tcgemm_c.f90).

Fails (exit 1, one line per problem) when
  * a tcgemm_* function exported by the library (nm -D --defined-only) or declared in the header has
    no `bind(C, name="...")` interface in the Fortran module, or an interface binds a name the
    header does not declare;
  * an exported function is not in the header, or a header function is not exported;
  * an interface differs from its prototype: argument count, and per argument the Fortran type and
    kind, `value` versus reference, and intent for pointers (const T* -> intent(in)); the result
    (tcgemm_status -> integer(c_int) function, const char* -> type(c_ptr) function, void ->
    subroutine);
  * a status/family/version constant differs (missing or other value), or a bind(C) derived type
    differs from its struct (member names, order, types, array lengths).

Hand-kept bindings drift (hipfort's history); this keeps ours honest without generating them.

Usage:
  check_fortran_bindings.py --header tcgemm.h --fortran tcgemm_c.f90 [--library libtcgemm.so]
  check_fortran_bindings.py --self-test --header tcgemm.h --fortran tcgemm_c.f90
"""
import argparse
import re
import subprocess
import sys

# ---- C side ----------------------------------------------------------------------------------------

# C scalar type -> (Fortran type, kind) when passed by value.
C_SCALARS = {
    "int64_t": ("integer", "c_int64_t"),
    "int32_t": ("integer", "c_int32_t"),
    "double": ("real", "c_double"),
    "float": ("real", "c_float"),
    "char": ("character", "c_char"),
    "cudaStream_t": ("type", "c_ptr"),
    "tcgemm_status": ("integer", "c_int"),
}
C_STRUCTS = ("tcgemm_config", "tcgemm_device_info", "tcgemm_plan", "tcgemm_wmma_config")


def strip_c_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def parse_header(text):
    """Prototypes {name: (return, [params])}, constants {name: value}, structs {name: [(member, type, count)]}."""
    code = strip_c_comments(text)
    constants = {m.group(1): int(m.group(2))
                 for m in re.finditer(r"#define\s+(TCGEMM_VERSION_\w+)\s+(\d+)", code)}
    for body in re.findall(r"typedef\s+enum\s+\w*\s*\{(.*?)\}", code, flags=re.S):
        for m in re.finditer(r"(TCGEMM_\w+)\s*=\s*(-?\d+)", body):
            constants[m.group(1)] = int(m.group(2))
    structs = {}
    for m in re.finditer(r"typedef\s+struct\s+(\w+)\s*\{(.*?)\}\s*(\w+)\s*;", code, flags=re.S):
        members = []
        for decl in m.group(2).split(";"):
            decl = decl.strip()
            if not decl:
                continue
            mm = re.match(r"([\w\s]+?)\s+(\w+)\s*(?:\[(\w+)\])?$", decl)
            if not mm:
                raise SystemExit(f"cannot parse member '{decl}' of struct {m.group(1)}")
            members.append((mm.group(2), mm.group(1).strip(), int(mm.group(3)) if mm.group(3) else 1))
        structs[m.group(3)] = members
    code = re.sub(r"^\s*#.*$", " ", code, flags=re.M)
    code = re.sub(r"typedef\s+(enum|struct)\s+\w*\s*\{.*?\}\s*\w+\s*;", " ", code, flags=re.S)
    prototypes = {}
    for m in re.finditer(r"([A-Za-z_][\w\s\*]*?)\b(tcgemm_\w+)\s*\(([^;{}]*)\)\s*;", code):
        ret = " ".join(m.group(1).split())
        params = [" ".join(p.split()) for p in m.group(3).split(",")]
        if params == ["void"] or params == [""]:
            params = []
        prototypes[m.group(2)] = (ret, params)
    return prototypes, constants, structs


def c_param(param):
    """'const double* A' -> (base 'double', pointer depth 1, const True, name 'A')."""
    m = re.match(r"(.*?)(\w+)$", param)
    if not m:
        raise SystemExit(f"cannot parse parameter '{param}'")
    type_text, name = m.group(1), m.group(2)
    depth = type_text.count("*")
    words = type_text.replace("*", " ").split()
    const = "const" in words
    words = [w for w in words if w != "const"]
    if len(words) != 1:
        raise SystemExit(f"cannot parse parameter '{param}'")
    return words[0], depth, const, name


def expected_argument(param):
    """The Fortran declarations that bind one C parameter correctly: a list of acceptable tuples
    (type, kind, value, intent set or None = any)."""
    base, depth, const, _ = c_param(param)
    pointee_intent = {"in"} if const else {"out", "inout", None}
    if depth == 0:
        if base not in C_SCALARS:
            raise SystemExit(f"no Fortran mapping for by-value C type '{base}'")
        return [C_SCALARS[base] + (True, None)]
    if depth == 1 and base == "void":
        return [("type", "c_ptr", True, None)]
    if depth == 2 and base == "void":
        return [("type", "c_ptr", False, {"out", "inout", None})]
    if depth == 1 and base == "cudaStream_t":
        # an out-argument receiving a stream handle: type(c_ptr) by reference
        return [("type", "c_ptr", False, {"out", "inout", None})]
    if depth == 1 and base in C_STRUCTS:
        # the derived type by reference, or (where C takes NULL for "defaults") its address by value
        return [("type", base, False, pointee_intent), ("type", "c_ptr", True, None)]
    if depth == 1 and base in ("double", "float"):
        # a device pointer (type(c_ptr), value) or a host array by reference
        return [("type", "c_ptr", True, None), (C_SCALARS[base][0], C_SCALARS[base][1], False, pointee_intent)]
    if depth == 2 and base in ("double", "float"):
        # a device array of device pointers (the batched calls' pointer arrays)
        return [("type", "c_ptr", True, None)]
    if depth == 1 and base in ("int64_t", "int32_t"):
        return [(C_SCALARS[base][0], C_SCALARS[base][1], False, pointee_intent)]
    if depth == 1 and base == "char":
        # a host array of characters (the grouped batch's transa and transb, one per group), by reference
        return [("character", "c_char", False, pointee_intent)]
    raise SystemExit(f"no Fortran mapping for C parameter '{param}'")


def expected_result(ret):
    if ret == "void":
        return None
    if ret == "tcgemm_status":
        return ("integer", "c_int")
    if ret.replace(" ", "") in ("constchar*", "char*"):
        return ("type", "c_ptr")
    if ret in C_SCALARS:
        return C_SCALARS[ret][:2]
    raise SystemExit(f"no Fortran mapping for C return type '{ret}'")


# ---- Fortran side ------------------------------------------------------------------------------------

def fortran_statements(text):
    """Statements with comments removed and & continuations joined, lower-cased except strings."""
    lines = []
    for raw in text.splitlines():
        line = re.sub(r"!.*$", "", raw).rstrip()   # no '!' inside the strings this file uses
        if line.strip():
            lines.append(line.strip())
    statements, current = [], ""
    for line in lines:
        if line.startswith("&"):
            line = line[1:].lstrip()
        if line.endswith("&"):
            current += line[:-1] + " "
            continue
        statements.append(current + line)
        current = ""
    return statements


def split_top(text, sep=","):
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def parse_declaration(statement):
    """'integer(c_int64_t), value :: m, n' -> [(name, info)] or [] when not a declaration."""
    if "::" not in statement:
        return []
    spec, entities = statement.split("::", 1)
    attrs = split_top(spec)
    m = re.match(r"(integer|real|character|logical|type)\s*(?:\((.*)\))?$", attrs[0].strip(), re.I)
    if not m:
        return []
    kind = (m.group(2) or "").strip().lower()
    kind = re.sub(r"^(kind|len)\s*=\s*", "", kind)
    info = {"type": m.group(1).lower(), "kind": kind, "value": False, "intent": None, "array": None}
    for attr in attrs[1:]:
        a = attr.strip().lower()
        if a == "value":
            info["value"] = True
        elif a.startswith("intent"):
            info["intent"] = re.sub(r"[\s()]|intent", "", a)
        elif a.startswith("dimension"):
            info["array"] = a[len("dimension"):].strip()[1:-1]
    result = []
    for entity in split_top(entities):
        em = re.match(r"(\w+)\s*(?:\((.*)\))?\s*(?:=.*)?$", entity)
        if not em:
            continue
        item = dict(info)
        if em.group(2) is not None:
            item["array"] = em.group(2).strip()
        value_m = re.search(r"=\s*(-?\d+)", entity)
        item["init"] = int(value_m.group(1)) if value_m else None
        result.append((em.group(1).lower(), item))
    return result


def parse_fortran(text):
    """Interfaces {c_name: (fortran_name, is_function, [args], result or None)},
    constants {NAME: value}, types {name: [(component, info)]}."""
    statements = fortran_statements(text)
    interfaces, constants, types = {}, {}, {}
    i = 0
    while i < len(statements):
        s = statements[i]
        head = re.match(r"(function|subroutine)\s+(\w+)\s*\(([^)]*)\)(.*)$", s, re.I)
        if head and "bind" in head.group(4).lower():
            bind = re.search(r'bind\s*\(\s*c\s*,\s*name\s*=\s*"([^"]+)"\s*\)', head.group(4), re.I)
            if not bind:
                raise SystemExit(f"interface {head.group(2)} has bind(C) without name=")
            is_function = head.group(1).lower() == "function"
            args = [a.strip().lower() for a in head.group(3).split(",") if a.strip()]
            result_m = re.search(r"result\s*\(\s*(\w+)\s*\)", head.group(4), re.I)
            result_name = (result_m.group(1) if result_m else head.group(2)).lower()
            decls = {}
            i += 1
            while not re.match(r"end\s*(function|subroutine)", statements[i], re.I):
                for name, info in parse_declaration(statements[i]):
                    decls[name] = info
                i += 1
            arg_infos = [(a, decls.get(a)) for a in args]
            result = decls.get(result_name) if is_function else None
            if bind.group(1) in interfaces:
                raise SystemExit(f"two interfaces bind {bind.group(1)}")
            interfaces[bind.group(1)] = (head.group(2), is_function, arg_infos, result)
        elif re.match(r"type\s*,.*bind\s*\(\s*c\s*\).*::\s*(\w+)", s, re.I):
            name = re.search(r"::\s*(\w+)", s).group(1).lower()
            components = []
            i += 1
            while not re.match(r"end\s*type", statements[i], re.I):
                components += parse_declaration(statements[i])
                i += 1
            types[name] = components
        elif "parameter" in s.lower() and "::" in s:
            for name, info in parse_declaration(s):
                if name.upper().startswith("TCGEMM_") and info.get("init") is not None:
                    constants[name.upper()] = info["init"]
        i += 1
    return interfaces, constants, types


# ---- comparison ---------------------------------------------------------------------------------------

def describe(info):
    if info is None:
        return "undeclared"
    text = f"{info['type']}({info['kind']})"
    if info["value"]:
        text += ", value"
    if info["intent"]:
        text += f", intent({info['intent']})"
    if info["array"]:
        text += f" ({info['array']})"
    return text


def matches(info, expected):
    if info is None:
        return False
    ftype, kind, value, intents = expected
    if info["type"] != ftype or info["kind"] != kind or info["value"] != value:
        return False
    if value and info["array"]:
        return False
    if intents is not None and info["intent"] not in intents:
        return False
    return True


def compare(prototypes, c_constants, structs, interfaces, f_constants, f_types, exported=None):
    errors = []
    for name, (ret, params) in sorted(prototypes.items()):
        if name not in interfaces:
            errors.append(f"{name}: declared in the header but no bind(C, name=\"{name}\") interface")
            continue
        fname, is_function, args, result = interfaces[name]
        if len(args) != len(params):
            errors.append(f"{name}: {len(params)} argument(s) in C, {len(args)} in Fortran ({fname})")
            continue
        for position, (param, (arg, info)) in enumerate(zip(params, args), start=1):
            options = expected_argument(param)
            if not any(matches(info, option) for option in options):
                want = " or ".join(describe({"type": t, "kind": k, "value": v,
                                             "intent": "/".join(sorted(x or "-" for x in i)) if i else None,
                                             "array": None}) for t, k, v, i in options)
                errors.append(f"{name}: argument {position} '{param}' is bound as '{arg}: {describe(info)}'; "
                              f"expected {want}")
        want_result = expected_result(ret)
        if want_result is None and is_function:
            errors.append(f"{name}: returns void in C but is a Fortran function")
        elif want_result is not None:
            if not is_function:
                errors.append(f"{name}: returns {ret} in C but is a Fortran subroutine")
            elif result is None or (result["type"], result["kind"]) != want_result:
                errors.append(f"{name}: returns {ret}; Fortran result is {describe(result)}, expected "
                              f"{want_result[0]}({want_result[1]})")
    for name, (fname, _, _, _) in sorted(interfaces.items()):
        if name.startswith("tcgemm_") and name not in prototypes:
            errors.append(f"{name}: bound by Fortran interface {fname} but not declared in the header")
    if exported is not None:
        for name in sorted(exported - set(prototypes)):
            errors.append(f"{name}: exported by the library but not declared in the header")
        for name in sorted(exported - set(interfaces)):
            errors.append(f"{name}: exported by the library but has no Fortran interface")
        for name in sorted(set(prototypes) - exported):
            errors.append(f"{name}: declared in the header but not exported by the library")

    # Fortran names are case-insensitive (TCGEMM_WMMA_16x16x16 may be spelled with either x).
    f_upper = {k.upper(): v for k, v in f_constants.items()}
    for name, value in sorted(c_constants.items()):
        if name.upper() not in f_upper:
            errors.append(f"constant {name} = {value} is not mirrored in the Fortran module")
        elif f_upper[name.upper()] != value:
            errors.append(f"constant {name} is {value} in C but {f_upper[name.upper()]} in Fortran")

    for struct, members in sorted(structs.items()):
        components = f_types.get(struct)
        if components is None:
            errors.append(f"struct {struct} has no bind(C) derived type")
            continue
        if [m[0].lower() for m in members] != [c[0] for c in components]:
            errors.append(f"struct {struct}: members {[m[0] for m in members]} but components "
                          f"{[c[0] for c in components]}")
            continue
        for (member, ctype, count), (_, info) in zip(members, components):
            # A member that is itself one of the structs is bound as type(<struct>).
            want = ("type", ctype) if ctype in C_STRUCTS else C_SCALARS.get(ctype)
            length = int(info["array"]) if info["array"] and info["array"].isdigit() else (
                f_constants.get(info["array"].upper()) if info["array"] else 1)
            if want is None or (info["type"], info["kind"]) != want or length != count:
                errors.append(f"struct {struct}: member {ctype} {member}[{count}] is bound as "
                              f"{describe(info)}")
    return errors


def exported_symbols(library):
    try:
        out = subprocess.run(["nm", "-D", "--defined-only", library], check=True, capture_output=True,
                             text=True).stdout
    except (OSError, subprocess.CalledProcessError) as err:
        raise SystemExit(f"nm -D --defined-only {library} failed: {err}")
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] in ("T", "W", "i") and parts[2].startswith("tcgemm_"):
            names.add(parts[2].split("@")[0])
    return names


def check(header_text, fortran_text, exported=None):
    prototypes, c_constants, structs = parse_header(header_text)
    interfaces, f_constants, f_types = parse_fortran(fortran_text)
    if not prototypes or not interfaces:
        return ["parsed no prototypes or no interfaces: the parser no longer understands the files"]
    return compare(prototypes, c_constants, structs, interfaces, f_constants, f_types, exported)


# ---- self-test: every kind of drift must be noticed --------------------------------------------------

def self_test(header_text, fortran_text):
    def drop_interface(text, c_name):
        pattern = (r"\n[ \t]*function\s+\w+\s*\([^)]*\)[^\n]*&?\s*\n?[^\n]*bind\(C, name=\"" + c_name +
                   r"\"\).*?end function \w+\n")
        new = re.sub(pattern, "\n", text, count=1, flags=re.S)
        return new

    mutations = {
        "unmodified (must pass)": (header_text, fortran_text, False),
        "interface removed": (header_text, drop_interface(fortran_text, "tcgemm_dgemm_host"), True),
        "argument removed": (header_text, fortran_text.replace(
            "function c_tcgemm_free(device_ptr) result(status)",
            "function c_tcgemm_free() result(status)", 1), True),
        "value attribute lost": (header_text, fortran_text.replace(
            "integer(c_int64_t), value :: lda\n", "integer(c_int64_t) :: lda\n", 1), True),
        "kind changed": (header_text, fortran_text.replace(
            "integer(c_int32_t), value :: niter", "integer(c_int64_t), value :: niter", 1), True),
        "intent on a const pointer": (header_text, fortran_text.replace(
            "type(tcgemm_config), intent(in) :: config\n", "type(tcgemm_config), intent(out) :: config\n",
            1), True),
        "bind name typo": (header_text, fortran_text.replace(
            'name="tcgemm_synchronize"', 'name="tcgemm_synchronise"', 1), True),
        "constant value": (header_text, fortran_text.replace(
            "TCGEMM_ERROR_CUDA = 6", "TCGEMM_ERROR_CUDA = 7", 1), True),
        "struct member kind": (header_text, fortran_text.replace(
            "integer(c_int64_t) :: shared_memory_per_sm", "integer(c_int32_t) :: shared_memory_per_sm",
            1), True),
        "new C entry point": (header_text.replace(
            "tcgemm_status tcgemm_release_workspace(void);",
            "tcgemm_status tcgemm_release_workspace(void);\ntcgemm_status tcgemm_new_entry(int64_t n);", 1),
            fortran_text, True),
        "stream out-argument by value": (header_text, fortran_text.replace(
            "type(c_ptr), intent(out) :: stream\n", "type(c_ptr), value :: stream\n", 1), True),
        "C argument added": (header_text.replace(
            "tcgemm_status tcgemm_synchronize(cudaStream_t stream);",
            "tcgemm_status tcgemm_synchronize(cudaStream_t stream, int32_t flags);", 1), fortran_text, True),
        "new status code": (header_text.replace(
            "TCGEMM_ERROR_CUDA = 6", "TCGEMM_ERROR_CUDA = 6,\n  TCGEMM_ERROR_NEW = 7", 1), fortran_text, True),
    }
    failed = False
    for label, (header, fortran, must_fail) in mutations.items():
        if (header, fortran) == (header_text, fortran_text) and must_fail:
            print(f"self-test: mutation '{label}' did not apply (the files changed?)")
            failed = True
            continue
        errors = check(header, fortran, exported=None)
        ok = bool(errors) == must_fail
        print(f"self-test: {label}: {'ok' if ok else 'NOT DETECTED' if must_fail else 'FALSE ALARM'}"
              + (f" ({errors[0]})" if errors and must_fail else ""))
        if not ok:
            failed = True
            for e in errors:
                print("    " + e)
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--header", required=True)
    parser.add_argument("--fortran", required=True)
    parser.add_argument("--library", help="libtcgemm shared library: compare its exported tcgemm_* symbols")
    parser.add_argument("--self-test", action="store_true", help="check that each kind of drift is detected")
    args = parser.parse_args()
    with open(args.header, encoding="utf-8") as f:
        header_text = f.read()
    with open(args.fortran, encoding="utf-8") as f:
        fortran_text = f.read()
    if args.self_test:
        return self_test(header_text, fortran_text)
    exported = exported_symbols(args.library) if args.library else None
    errors = check(header_text, fortran_text, exported)
    prototypes, _, _ = parse_header(header_text)
    for e in errors:
        print("DRIFT: " + e)
    if errors:
        print(f"{len(errors)} problem(s) between {args.header} and {args.fortran}")
        return 1
    extra = f" and the {len(exported)} tcgemm_* symbols of {args.library}" if exported is not None else ""
    print(f"ok: {len(prototypes)} C entry points of {args.header}{extra} match {args.fortran}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
