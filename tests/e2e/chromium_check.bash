# Sourced by the report tests.  chromium_check PAGE BROKEN_IMG_TYPE WHAT: renders
# PAGE (an HTML file) in headless Chromium with the flags the developers' guide
# asks (no connection tried to the outside, a fresh profile), and fails unless
# every image of the page loaded and nothing was logged to the console.  The
# check runs on copies of the page with a script appended (the page itself has
# none): one as it is, one with a broken image of BROKEN_IMG_TYPE (image/png,
# image/svg+xml) added, which the check must see; then a screenshot of the page
# itself, kept in $HDDSCOPE_SCREENSHOT where that is set.  Skips (77) without
# chromium.  WHAT names the page in the pass line.
chrome() {
	timeout 300 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$(mktemp -d "$T/chrome.XXXXXX")" "$@"
}
chromium_check() {
	local page=$1 type=$2 what=$3 check n
	command -v chromium >/dev/null || skip "chromium not installed (Debian: apt-get install chromium)"
	check='<script>window.addEventListener("load", function () { var im = document.images, bad = 0;
for (var i = 0; i < im.length; i++) if (!im[i].complete || im[i].naturalWidth === 0) bad++;
var p = document.createElement("p"); p.id = "hddscope-check"; p.textContent = "images " + im.length + " broken " + bad;
document.body.appendChild(p); console.log("hddscope-check-marker"); });</script>'
	sed 's|</body>||' "$page" >"$T/w.html"
	printf '%s\n</body>\n' "$check" >>"$T/w.html"
	sed 's|</body>||' "$page" >"$T/bad.html"
	printf '<img alt="broken" src="data:%s;base64,AAAA">\n%s\n</body>\n' "$type" "$check" >>"$T/bad.html"
	n=$(grep -o '<img ' "$page" | wc -l)
	chrome --enable-logging=stderr --v=0 --dump-dom "file://$T/w.html" >"$T/dom" 2>"$T/dom.err" ||
		fail "chromium --dump-dom"
	grep -q "images $n broken 0" "$T/dom" || { grep -o 'images [0-9]* broken [0-9]*' "$T/dom"; fail "not every image loaded"; }
	grep -q 'CONSOLE.*hddscope-check-marker' "$T/dom.err" || fail "console messages are not seen in chromium's log"
	chrome --dump-dom "file://$T/bad.html" >"$T/dom" 2>/dev/null || fail "chromium --dump-dom"
	grep -q "images $((n + 1)) broken 1" "$T/dom" || fail "the check does not see a broken image"
	chrome --enable-logging=stderr --v=0 --window-size=1200,2400 --screenshot="$T/shot.png" "file://$page" \
		>/dev/null 2>"$T/shot.err" || fail "chromium --screenshot"
	[ "$(head -c 8 "$T/shot.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] || fail "no screenshot"
	! grep CONSOLE "$T/shot.err" || fail "the page logged to the console"
	[ -z "${HDDSCOPE_SCREENSHOT:-}" ] || cp "$T/shot.png" "$HDDSCOPE_SCREENSHOT"
	pass "chromium renders $what: $n images loaded, nothing on the console"
}
