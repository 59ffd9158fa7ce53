# Queue: IOPS against the number of concurrent clients, latency percentiles on the right.
#   gnuplot -c plots/queue.gp queue.tsv OUT.png|OUT.svg
# Given the per-request file (queue-requests.tsv, "table: requests") it draws every
# request's latency against the number of clients instead, spread sideways by client.
if (ARGC < 2) { print "usage: gnuplot -c queue.gp DATA.tsv OUT.png"; exit status 1 }
DATA = ARG1
OUT = ARG2
# This script's folder, found without a shell: "." where ARG0 names none.
dirof(s, a) = strstrt(s, "/") ? dirof(s[strstrt(s, "/") + 1:], a . s[1:strstrt(s, "/")]) : a
load dirof(ARG0, "") . "./common.gp"

set datafile separator "\t"
set datafile commentschars "#"
table = hdr("table")
clients = (hdr("clients")[1:9] eq "simulated") ? "simulated clients" : "processes"
block = system(sprintf("sed -n 's/^# params: .*block=\\([0-9]*\\).*/\\1/p' '%s' | head -n 1", DATA))
set logscale x 2
eval pad("x", 1, 1, 1)
set xlabel sprintf("concurrent %s (N)", clients)

if (table eq "requests") {
    # Columns: procs client pid offset_bytes start_ms latency_ms class
    set title sprintf("%s: queued %s-byte random reads, every request%s", drive, block, partial) noenhanced
    set ylabel "latency (ms)"
    set yrange [0:*]
    # Spread each N's requests over +-20% of N on the log axis, client by client.
    spread(n, c) = n * (1 + 0.4 * ((c + 0.5) / n - 0.5))
    cls(c) = strcol(7) eq c
    # The key lists only the classes the file has; each has a mark of its own.
    P = ""
    add(s) = (P eq "" ? s : P . ", " . s)
    if (ncol(7, "media") > 0) { P = add('DATA using (spread($1, $2)):(cls("media") ? $6 : 1/0) with points pt 7 ps 0.25 lc rgb "#1f77b4" title "media"') }
    if (ncol(7, "cache") > 0) { P = add('DATA using (spread($1, $2)):(cls("cache") ? $6 : 1/0) with points pt 6 ps 0.5 lc rgb "#ff7f0e" title "cache hit"') }
    if (ncol(7, "unknown") > 0) { P = add('DATA using (spread($1, $2)):(cls("unknown") ? $6 : 1/0) with points pt 1 ps 0.5 lc rgb "#7f7f7f" title "unknown"') }
    if (ncol(7, "error") > 0) { P = add('DATA using (spread($1, $2)):(cls("error") ? $6 : 1/0) with points pt 2 ps 0.8 lc rgb "#d62728" title "error"') }
    if (P eq "") { P = "NaN notitle" }
    eval "plot " . P
} else {
    # Columns: procs requests iops mb_s lat_mean_ms lat_p50_ms lat_p90_ms lat_p99_ms lat_max_ms
    set title sprintf("%s: queued %s-byte random reads%s", drive, block, partial) noenhanced
    set ylabel "IOPS (completed reads per second)"
    set y2label "latency (ms)"
    set yrange [0:*]
    set y2range [0:*]
    set ytics nomirror
    set y2tics
    plot DATA using 1:3 axes x1y1 with linespoints lw 2 pt 7 lc rgb "#1f77b4" title "IOPS", \
         DATA using 1:6 axes x1y2 with linespoints pt 6 lc rgb "#2ca02c" title "p50 latency", \
         DATA using 1:7 axes x1y2 with linespoints pt 4 lc rgb "#ff7f0e" title "p90 latency", \
         DATA using 1:8 axes x1y2 with linespoints pt 8 lc rgb "#d62728" title "p99 latency", \
         DATA using 1:9 axes x1y2 with points pt 2 lc rgb "#7f7f7f" title "max latency"
}
