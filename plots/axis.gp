# The distance axis of the seek and response charts; load after common.gp.
# AXIS is "symlog" (the default) or "linear", set by hddscope plot (gnuplot -e);
# the symmetric log axis puts distance d at sign(d) log10(1 + |d| / SYMC), so
# that +-256 KiB and +-1 GiB get room alike and zero stays in the middle.
# hddscope plot sets SYMC to the smallest distance, down to a power of two;
# without it: the header's min_bytes, else 4096.
#   xd(d)                    where distance d (bytes) goes on the x axis
#   eval dist_axis(lo, hi, px, what)
#                            x label, range and tics for distances [lo, hi]
#                            (bytes) on a plot about px pixels wide
if (!exists("AXIS")) { AXIS = "symlog" }
if (!exists("SYMC")) { SYMC = (hdr("min_bytes") eq "") ? 4096 : real(hdr("min_bytes")) }
# Real, not integer: gnuplot divides integers as C does.
SYMC = (SYMC <= 0) ? 4096.0 : real(SYMC)
linear_axis = (AXIS eq "linear")
sl(d) = sgn(d) * log10(1 + abs(d) / SYMC)
xd(d) = linear_axis ? d / 1e6 : sl(d)
# 1024 * 4^k as the charts write sizes: 1K 4K ... 256K 1M ... 1G 4G ... 1T.
sizelab(b) = b >= 2**40 ? sprintf("%.0fT", b / 2**40) : b >= 2**30 ? sprintf("%.0fG", b / 2**30) : \
             b >= 2**20 ? sprintf("%.0fM", b / 2**20) : b >= 2**10 ? sprintf("%.0fK", b / 2**10) : sprintf("%.0f", b)
# Tics at 0 and +-1024 * 4^k from SYMC up, every s-th power of 4 with the
# smallest s at which no label reaches its neighbour (about 7.5 pixels a
# character and 8 between labels, the "-" side being the wider); the first
# tics, up to three, are dropped where they would touch the "0".  A tic up to a quarter past
# the largest distance widens the range to it.
ax_ok(k0, s) = sprintf("ax_fit = 1; ax_prev = 0; ax_plen = 1; do for [ax_j = 0:40] { ax_t = 1024.0 * 4**(%d + ax_j * %d); if (ax_t <= ax_top * 1.25) { ax_len = strlen(sizelab(ax_t)) + 1; if ((sl(ax_t) - ax_prev) * ax_u < 7.5 * (ax_len + ax_plen) / 2 + 8) { ax_fit = 0 }; ax_prev = sl(ax_t); ax_plen = ax_len } }", k0, s)
symlog_tics(lo, hi, px) = sprintf("ax_lo = real(%.17g); ax_hi = real(%.17g); ax_px = real(%.17g); ", lo, hi, px) . \
    'ax_top = abs(ax_lo) > abs(ax_hi) ? abs(ax_lo) : abs(ax_hi); ax_w = sl(ax_hi) - sl(ax_lo); ax_w = ax_w > 0 ? ax_w : 1; ax_u = ax_px / ax_w; ' . \
    'ax_k0 = 0; while (1024.0 * 4**ax_k0 < SYMC) { ax_k0 = ax_k0 + 1 }; ' . \
    'ax_s = 0; ax_fit = 0; ax_m = 0; while (!ax_fit && ax_s < 8) { ax_s = ax_s + 1; ax_m = 0; while (!ax_fit && ax_m < 4) { eval ax_ok(ax_k0 + ax_m, ax_s); if (!ax_fit) { ax_m = ax_m + 1 } } }; ' . \
    'ax_k0 = ax_k0 + (ax_fit ? ax_m : 1); ' . \
    'ax_tics = "\"0\" 0"; ax_xl = sl(ax_lo) < 0 ? sl(ax_lo) : 0; ax_xh = sl(ax_hi) > 0 ? sl(ax_hi) : 0; ' . \
    'do for [ax_j = 0:40] { ax_t = 1024.0 * 4**(ax_k0 + ax_j * ax_s); ' . \
    'if (ax_hi * 1.25 >= ax_t) { ax_tics = ax_tics . sprintf(", \"%s\" %.6f", sizelab(ax_t), sl(ax_t)); ax_xh = sl(ax_t) > ax_xh ? sl(ax_t) : ax_xh }; ' . \
    'if (ax_lo * 1.25 <= -ax_t) { ax_tics = ax_tics . sprintf(", \"-%s\" %.6f", sizelab(ax_t), -sl(ax_t)); ax_xl = -sl(ax_t) < ax_xl ? -sl(ax_t) : ax_xl } }; ' . \
    'eval "set xtics (" . ax_tics . ")"; ax_w = ax_xh - ax_xl; set xrange [ax_xl - 0.02 * ax_w : ax_xh + 0.02 * ax_w]'
dist_axis(lo, hi, px, what) = linear_axis ? \
    sprintf("set xlabel '%s (MB, 10^6 bytes)' noenhanced; set xrange [%.17g : %.17g]; set xtics autofreq", what, lo / 1e6 - (hi - lo) * 0.02e-6 - (hi == lo ? 1 : 0), hi / 1e6 + (hi - lo) * 0.02e-6 + (hi == lo ? 1 : 0)) : \
    sprintf("set xlabel '%s (bytes, symmetric log, c = %s; K M G = 2^10 2^20 2^30)' noenhanced; ", what, sizelab(SYMC)) . symlog_tics(lo, hi, px)
