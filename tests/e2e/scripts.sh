# Every shell script of the project parses (bash -n): a test helper that does
# not parse is not defined, and a test calling it prints "command not found"
# and goes on, so that its checks cannot fail.
. "$(dirname "$0")/common.bash"

cd "$HDDSCOPE_SRC" || fail "cd $HDDSCOPE_SRC"
if ! git ls-files '*.sh' '*.bash' tests/bench/run .ci/run .ci/install-deps >"$T/list" 2>/dev/null || [ ! -s "$T/list" ]; then
	{ find tests .ci -name '*.sh' -o -name '*.bash'; echo tests/bench/run; echo .ci/run; echo .ci/install-deps; } >"$T/list"
fi
n=0
while IFS= read -r f; do
	bash -n "$f" 2>"$T/err" || fail "$f does not parse: $(cat "$T/err")"
	n=$((n + 1))
done <"$T/list"
[ "$n" -gt 40 ] || fail "only $n scripts found under $HDDSCOPE_SRC"
pass "$n shell scripts parse"
