# The man page hddscope(1) renders without a warning, cannot fall behind the code (every
# command of 'hddscope --help' has its section, and every long option and every listed
# name (sim's subcommands, verdict's rules) of a command's --help appears in that
# section), documents no option a command does not have, and is installed.
. "$(dirname "$0")/common.bash"

page=$HDDSCOPE_SRC/data/man/hddscope.1
[ -e "$page" ] || fail "no $page"
command -v man >/dev/null || skip "man not installed (Debian: man-db)"
command -v groff >/dev/null || skip "groff not installed (Debian: groff-base)"

# Rendered at 80 columns, no pager, no warning from man or groff.
MANWIDTH=80 MANPAGER=cat man --warnings -l -P cat "$page" >"$T/page.txt" 2>"$T/err" ||
	{ cat "$T/err" >&2; fail "man -l failed"; }
[ ! -s "$T/err" ] || { cat "$T/err" >&2; fail "man --warnings -l warns"; }
groff -ww -z -man "$page" 2>"$T/err" || { cat "$T/err" >&2; fail "groff -man failed"; }
[ ! -s "$T/err" ] || { cat "$T/err" >&2; fail "groff -ww warns"; }
grep -q '^NAME' "$T/page.txt" && grep -q 'hddscope - characterize' "$T/page.txt" || fail "rendered page has no NAME"
[ "$(grep -c '' "$T/page.txt")" -gt 500 ] || fail "rendered page is too short"
long=$(awk 'length > 80' "$T/page.txt")
[ -z "$long" ] || fail "rendered lines wider than 80 columns: $long"
pass "man -l renders hddscope.1 without warnings"

# The page's source as plain text: minus signs as '-', fonts dropped.
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(+-/+-/g' "$page" >"$T/src"

# section CMD: the source lines of the subsection ".SS CMD" inside ".SH COMMANDS".
section() {
	awk -v c="$1" '
		/^\.SH/ { in_cmds = ($0 == ".SH COMMANDS"); on = 0; next }
		in_cmds && /^\.SS/ { t = $0; sub(/^\.SS +/, "", t); gsub(/"/, "", t); on = (t == c); next }
		on' "$T/src"
}

cmds=$("$HDDSCOPE" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on && /^  [a-z]/ { print $1 }')
[ "$(echo "$cmds" | wc -w)" -ge 16 ] || fail "hddscope --help lists only: $cmds"
n_opts=0
for c in $cmds; do
	section "$c" >"$T/sec"
	[ -s "$T/sec" ] || fail "hddscope.1: no section '.SS $c' under COMMANDS"
	"$HDDSCOPE" "$c" --help >"$T/help" 2>&1 || fail "hddscope $c --help exited non-zero"
	# Long options where the help defines them: at the start of a line.
	opts=$(grep -Eo '^ *(-[a-zA-Z], *)?--[a-z][a-z0-9-]*' "$T/help" | grep -Eo -- '--[a-z][a-z0-9-]*' | sort -u)
	for o in $opts; do
		grep -Eq -- "(^|[^a-z0-9-])$o([^a-z0-9-]|$)" "$T/sec" ||
			fail "hddscope.1, section $c: no $o (from 'hddscope $c --help')"
		n_opts=$((n_opts + 1))
	done
	# Names a help lists as "  name   text": sim's subcommands, verdict's rules.
	for w in $(grep -Eo '^  [a-z][a-z0-9_]* {2,}' "$T/help" | awk '{ print $1 }'); do
		grep -Eq -- "(^|[^a-z0-9_])$w([^a-z0-9_]|$)" "$T/sec" ||
			fail "hddscope.1, section $c: no $w (from 'hddscope $c --help')"
	done
	# The other way: an option the page gives as an item of this section exists.
	for o in $(awk 'p { print; p = 0 } /^\.TP/ { p = 1 }' "$T/sec" | grep -Eo -- '--[a-z][a-z0-9-]*' | sort -u); do
		grep -Eq -- "(^|[^a-z0-9-])$o([^a-z0-9-]|$)" "$T/help" ||
			fail "hddscope.1, section $c documents $o, which 'hddscope $c --help' does not list"
	done
done
[ "$n_opts" -ge 50 ] || fail "only $n_opts long options found in the commands' --help"
pass "every command ($(echo $cmds | wc -w)) and long option ($n_opts) of --help is in hddscope.1"

# The common probe options, described once, are those the probes take.
section "Common probe options" >"$T/sec"
for o in $(awk 'p { print; p = 0 } /^\.TP/ { p = 1 }' "$T/sec" | grep -Eo -- '--[a-z][a-z0-9-]*' | sort -u); do
	"$HDDSCOPE" seek --help | grep -Eq -- "^ *(-[a-zA-Z], *)?$o([^a-z0-9-]|$)" ||
		fail "hddscope.1 Common probe options: $o is not an option of seek"
done
pass "the common probe options exist"

# cmake --install puts the page under share/man/man1.
build=$(dirname "$HDDSCOPE")
if command -v cmake >/dev/null && [ -e "$build/cmake_install.cmake" ]; then
	cmake --install "$build" --prefix "$T/inst" >/dev/null 2>"$T/err" || { cat "$T/err" >&2; fail "cmake --install"; }
	cmp -s "$page" "$T/inst/share/man/man1/hddscope.1" || fail "install: no share/man/man1/hddscope.1"
	MANPATH=$T/inst/share/man MANWIDTH=80 man -P cat hddscope 2>/dev/null | grep -q '^SYNOPSIS' ||
		fail "man hddscope does not find the installed page"
	pass "installed as share/man/man1/hddscope.1"
fi
