#!/usr/bin/python3
"""Writes ime-composer(1), the manual page, from the binary's own description of its
command line (swift-argument-parser's `--experimental-dump-help` JSON), so the page always
lists the options the installed binary has.

    scripts/man-page.py BINARY > ime-composer.1
"""
import json
import subprocess
import sys


def escape(text):
    """Text for a roff line: backslashes doubled, a leading . or ' kept literal."""
    text = (text or "").replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def flag_names(argument):
    names = []
    for name in argument.get("names", []):
        dashes = "--" if name["kind"] in ("long", "longWithSingleDash") else "-"
        if name["kind"] == "longWithSingleDash":
            dashes = "-"
        names.append("\\fB" + escape(dashes + name["name"]) + "\\fR")
    if not names:  # a positional argument
        return "\\fI" + escape(argument.get("valueName", "value")) + "\\fR"
    text = ", ".join(names)
    if argument["kind"] == "option":
        text += " \\fI" + escape(argument.get("valueName", "value")) + "\\fR"
    return text


def arguments_section(arguments):
    out = []
    for argument in arguments:
        if not argument.get("shouldDisplay", True):
            continue
        out.append(".TP")
        out.append(flag_names(argument))
        abstract = argument.get("abstract", "")
        default = argument.get("defaultValue")
        if default not in (None, "", "false"):
            abstract += f" (default: {default})"
        allowed = argument.get("allValues")
        if allowed:
            abstract += " Values: " + ", ".join(allowed) + "."
        out.append(escape(abstract) if abstract else "\\&")
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: scripts/man-page.py BINARY")
    binary = sys.argv[1]
    dump = json.loads(subprocess.run([binary, "--experimental-dump-help"], check=True,
                                     capture_output=True, text=True).stdout)
    version = subprocess.run([binary, "--version"], check=True, capture_output=True,
                             text=True).stdout.strip()
    command = dump["command"]
    name = command["commandName"]
    subcommands = [c for c in command.get("subcommands", [])
                   if c.get("shouldDisplay", True) and c["commandName"] != "help"]
    page = [
        f'.TH {name.upper()} 1 "" "{name} {version}" "User Commands"',
        ".SH NAME",
        f"{name} \\- {escape(command.get('abstract', ''))}",
        ".SH SYNOPSIS",
        f"\\fB{name}\\fR [\\fIsubcommand\\fR] [\\fIoptions\\fR]",
        ".SH DESCRIPTION",
        escape(command.get("abstract", "")),
        "Without a subcommand, \\fB" + name + "\\fR runs \\fBrun\\fR: it opens the composer window.",
        "Each subcommand's options are listed below; \\fB" + name
        + " help\\fR \\fIsubcommand\\fR prints the same.",
    ]
    if command.get("arguments"):
        page.append(".SH OPTIONS")
        page.extend(arguments_section(command["arguments"]))
    for sub in subcommands:
        page.append(".SH " + escape(f"{name.upper()} {sub['commandName'].upper()}"))
        page.append(f"\\fB{name} {escape(sub['commandName'])}\\fR [\\fIoptions\\fR]")
        page.append(".PP")
        page.append(escape(sub.get("discussion") or sub.get("abstract", "")))
        page.extend(arguments_section(sub.get("arguments", [])))
    page += [
        ".SH FILES",
        ".TP",
        "\\fI$XDG_DATA_HOME/ime\\-composer/\\fR",
        "The draft, the sent messages and the settings (SQLite).",
        ".TP",
        "\\fI/usr/share/ime\\-composer/\\fR",
        "People, channels and emoji the completion finds; the lab's engine descriptions.",
    ]
    sys.stdout.write("\n".join(page) + "\n")


if __name__ == "__main__":
    main()
