/*
 * hddscope sim (list, show and inspect the drive models) and hddscope
 * replay (run a request trace on a simulated drive and compare it with the
 * service times measured on the real one).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/cli.h"
#include "hddscope/cmd.h"
#include "hddscope/datafile.h"
#include "hddscope/fsutil.h"
#include "hddscope/opt.h"
#include "hddscope/preset.h"
#include "hddscope/sim.h"
#include "hddscope/sim_import.h"
#include "hddscope/util.h"

/* A number with "." as the decimal point whatever the locale. */
static char *fmt_num(char *buf, size_t len, double v, int decimals)
{
	char *p;

	snprintf(buf, len, "%.*f", decimals, v);
	for (p = buf; *p; p++)
		if (*p == ',')
			*p = '.';
	return buf;
}

static void sim_usage(FILE *f)
{
	fprintf(f,
"Usage: hddscope sim list\n"
"       hddscope sim show MODEL\n"
"       hddscope sim info MODEL\n"
"       hddscope sim locate MODEL OFFSET...\n"
"       hddscope sim seek MODEL DISTANCE...\n"
"       hddscope sim import FILE.parv|FILE.diskspecs [-o OUT.drive] [--disk NAME]\n"
"\n"
"The simulated drives.  MODEL is a built-in preset NAME or a FILE.drive\n"
"(format: data/drives/README.md); a device spec sim:MODEL[,seed=N] opens one.\n"
"\n"
"  list      name, rpm, capacity and source of every built-in preset\n"
"  show      print the model file (a FILE.drive is checked first)\n"
"  info      numbers derived from the model, as 'key: value' lines\n"
"  locate    for each byte OFFSET: offset, LBA, cylinder, surface, sector\n"
"  seek      for each DISTANCE in cylinders (0 to the last cylinder): distance\n"
"            and seek time in ms (the model's curve, without jitter or write\n"
"            settle)\n"
"  import    read a DiskSim 4.0 model (a .parv or .diskspecs file, the files it\n"
"            sources, its models and seek curves) and write it as a model file;\n"
"            what it cannot express is listed in comments\n"
"  -h, --help  this help\n"
"\n"
"Options of import:\n"
"  -o, --output FILE  write the model to FILE (default: standard output)\n"
"      --disk NAME    the disksim_disk block (or instance) to import when FILE\n"
"                     defines several and instantiates none or several\n"
"\n"
"Exit codes: 0 ok, 1 usage, 2 no such preset, a bad model file or a DiskSim\n"
"file that cannot be read or imported, 3 cannot write the output.\n");
}

/* The "# source:" comment of a model file, or "-". */
static void source_of(const char *text, char *out, size_t len)
{
	const char *p = strstr(text, "# source:");
	size_t n;

	snprintf(out, len, "-");
	if (!p)
		return;
	p += 9;
	while (*p == ' ')
		p++;
	n = strcspn(p, "\n");
	if (n >= len)
		n = len - 1;
	memcpy(out, p, n);
	out[n] = '\0';
}

static int load(const char *spec, struct hd_sim_model **m)
{
	char err[512];
	int rc = hd_sim_model_load(spec, m, err, sizeof(err));

	if (rc) {
		hd_err("%s", err);
		return HD_EXIT_SETUP;
	}
	return 0;
}

static int sim_list(void)
{
	size_t i;

	printf("%-16s %6s %10s  %s\n", "NAME", "RPM", "CAPACITY", "SOURCE");
	for (i = 0; hd_presets[i].name; i++) {
		struct hd_sim_model *m;
		char err[512], src[256], cap[32];

		if (hd_sim_model_parse(hd_presets[i].text, hd_presets[i].len, hd_presets[i].name, &m,
				       err, sizeof(err))) {
			hd_err("%s", err);
			return HD_EXIT_SETUP;
		}
		source_of(hd_presets[i].text, src, sizeof(src));
		snprintf(cap, sizeof(cap), "%.1f GB", (double)m->sectors * m->sector_bytes / 1e9);
		printf("%-16s %6.0f %10s  %s\n", hd_presets[i].name, m->rpm, cap, src);
		hd_sim_model_free(m);
	}
	return HD_EXIT_OK;
}

static int sim_show(const char *spec)
{
	struct hd_sim_model *m;
	const struct hd_preset *p;
	FILE *f;
	char buf[8192];
	size_t n;
	int ex = load(spec, &m), rc;

	if (ex)
		return ex;
	hd_sim_model_free(m);
	p = hd_preset_find(spec);
	if (p) {
		fwrite(p->text, 1, p->len, stdout);
		return HD_EXIT_OK;
	}
	/* The file was read as a model just now; it is opened by the same rule again. */
	rc = hd_in_open(spec, &f);
	if (rc) {
		hd_in_strerror(buf, sizeof(buf), spec, rc);
		hd_err("%s", buf);
		return HD_EXIT_SETUP;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(f);
	return HD_EXIT_OK;
}

static int sim_info(const char *spec)
{
	struct hd_sim_model *m;
	int ex = load(spec, &m);

	if (ex)
		return ex;
	printf("name: %s\n", m->name);
	printf("rpm: %g\n", m->rpm);
	printf("revolution_ms: %.6f\n", hd_sim_rev_ms(m));
	printf("sector_bytes: %u\n", m->sector_bytes);
	printf("surfaces: %u\n", m->surfaces);
	printf("zones: %zu\n", m->nzones);
	printf("cylinders: %u\n", m->cylinders);
	printf("sectors: %llu\n", (unsigned long long)m->sectors);
	printf("capacity_bytes: %llu\n", (unsigned long long)(m->sectors * m->sector_bytes));
	printf("outer_track_bytes: %llu\n", (unsigned long long)m->zones[0].spt * m->sector_bytes);
	printf("inner_track_bytes: %llu\n",
	       (unsigned long long)m->zones[m->nzones - 1].spt * m->sector_bytes);
	printf("seek_1_ms: %.6f\n", hd_sim_seek_ms(m, 1));
	printf("seek_third_ms: %.6f\n", hd_sim_seek_ms(m, m->cylinders / 3));
	printf("seek_full_ms: %.6f\n", hd_sim_seek_ms(m, m->cylinders - 1));
	printf("seek_avg_ms: %.6f\n", hd_sim_seek_avg_ms(m, 0));
	printf("write_seek_1_ms: %.6f\n", hd_sim_write_positioning_ms(m, 1));
	printf("write_seek_third_ms: %.6f\n", hd_sim_write_positioning_ms(m, m->cylinders / 3));
	printf("write_seek_full_ms: %.6f\n", hd_sim_write_positioning_ms(m, m->cylinders - 1));
	printf("write_seek_avg_ms: %.6f\n", hd_sim_seek_avg_ms(m, 1));
	printf("head_switch_ms: %g\n", m->head_switch_ms);
	printf("write_settle_ms: %g\n", m->write_settle_ms);
	printf("read_overhead_ms: %g\n", m->read_overhead_ms);
	printf("write_overhead_ms: %g\n", m->write_overhead_ms);
	printf("cache_hit_overhead_ms: %g\n", m->cache_hit_overhead_ms);
	printf("interface_mb_s: %g\n", m->interface_mb_s);
	printf("cache_segments: %u\n", m->cache_segments);
	printf("cache_segment_kb: %llu\n", (unsigned long long)m->cache_segment_kb);
	printf("readahead_kb: %llu\n", (unsigned long long)m->readahead_kb);
	printf("write_cache: %s\n", m->write_cache == HD_SIM_WC_APPEND ? "append" :
				    m->write_cache == HD_SIM_WC_FLUSH ? "flush" : m->write_cache ? "on" : "off");
	printf("write_cache_kb: %llu\n", (unsigned long long)m->write_cache_kb);
	printf("queue_depth: %u\n", m->queue_depth);
	printf("seek_stddev_ms: %g\n", m->seek_stddev_ms);
	printf("write_retry_probability: %g\n", m->write_retry_probability);
	printf("bad_ranges: %zu\n", m->nbad);
	{
		uint64_t empty = 0, slips = 0, defects = 0;
		size_t i;

		for (i = 0; i < m->nzones; i++) {
			empty += m->zones[i].empty;
			slips += m->zones[i].nslips;
			defects += m->zones[i].ndefects;
		}
		printf("sparing: %s\n", hd_sim_sparing_name(m->sparing));
		printf("empty_sectors: %llu\nslips: %llu\nremapped_defects: %llu\n", (unsigned long long)empty,
		       (unsigned long long)slips, (unsigned long long)defects);
	}
	hd_sim_model_free(m);
	return HD_EXIT_OK;
}

static int sim_locate(const char *spec, int n, char **args)
{
	struct hd_sim_model *m;
	int i, ex = load(spec, &m);

	if (ex)
		return ex;
	for (i = 0; i < n; i++) {
		struct hd_sim_chs c;
		uint64_t off;

		if (hd_opt_size("OFFSET", args[i], &off)) {
			hd_sim_model_free(m);
			return HD_EXIT_USAGE;
		}
		if (hd_sim_lba_to_chs(m, off / m->sector_bytes, &c)) {
			hd_err("offset %s lies beyond the drive (%llu bytes)", args[i],
			       (unsigned long long)(m->sectors * m->sector_bytes));
			hd_sim_model_free(m);
			return HD_EXIT_USAGE;
		}
		printf("%llu\t%llu\t%u\t%u\t%u\n", (unsigned long long)off,
		       (unsigned long long)(off / m->sector_bytes), c.cyl, c.surface, c.sector);
	}
	hd_sim_model_free(m);
	return HD_EXIT_OK;
}

static int sim_seek(const char *spec, int n, char **args)
{
	struct hd_sim_model *m;
	int i, ex = load(spec, &m);
	char num[32];

	if (ex)
		return ex;
	for (i = 0; i < n; i++) {
		uint64_t d;

		if (hd_opt_u64("DISTANCE", args[i], &d)) {
			hd_sim_model_free(m);
			return HD_EXIT_USAGE;
		}
		/* A seek never spans more than the stroke: beyond it the curve is extrapolation. */
		if (d >= m->cylinders) {
			hd_err("DISTANCE %s: beyond the stroke of %s (0 to %u cylinders)", args[i], spec,
			       m->cylinders - 1);
			hd_sim_model_free(m);
			return HD_EXIT_USAGE;
		}
		printf("%llu\t%s\n", (unsigned long long)d,
		       fmt_num(num, sizeof(num), hd_sim_seek_ms(m, d), 6));
	}
	hd_sim_model_free(m);
	return HD_EXIT_OK;
}

/* sim import FILE [-o OUT] [--disk NAME]: the options after "import". */
static int sim_import_args(int argc, char **argv, const char **in, const char **out, const char **disk)
{
	int i;

	*in = *out = *disk = NULL;
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], **dst = NULL, *val = NULL;

		if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0)
			dst = out;
		else if (strncmp(a, "--output=", 9) == 0)
			dst = out, val = a + 9;
		else if (strcmp(a, "--disk") == 0)
			dst = disk;
		else if (strncmp(a, "--disk=", 7) == 0)
			dst = disk, val = a + 7;
		if (!dst) {
			if (a[0] == '-' && a[1]) {
				hd_err("sim import: unknown option '%s'", a);
				return -1;
			}
			if (*in) {
				hd_err("sim import: too many arguments: '%s'", a);
				return -1;
			}
			*in = a;
			continue;
		}
		if (!val && i + 1 >= argc) {
			hd_err("sim import: %s needs a value", a);
			return -1;
		}
		*dst = val ? val : argv[++i];
	}
	if (!*in) {
		hd_err("sim import: missing FILE.parv or FILE.diskspecs");
		return -1;
	}
	return 0;
}

static int sim_import(int argc, char **argv)
{
	const char *in, *out, *disk, *call = "write";
	char err[1024], *text;
	size_t len;
	int rc;

	if (sim_import_args(argc, argv, &in, &out, &disk))
		return hd_usage_hint("sim");
	/* The output is checked before anything is read. */
	if (out && (rc = hd_out_check_file(out))) {
		hd_err("%s: %s", out, hd_fs_strerror(rc));
		return HD_EXIT_RUNTIME;
	}
	if ((rc = hd_sim_import(in, disk, &text, &len, err, sizeof(err)))) {
		hd_err("%s", err);
		return HD_EXIT_SETUP;
	}
	if (!out) {
		rc = fwrite(text, 1, len, stdout) == len && fflush(stdout) == 0 ? 0 : -errno;
		free(text);
		if (rc) {
			hd_err("write standard output: %s", strerror(-rc));
			return HD_EXIT_RUNTIME;
		}
		return HD_EXIT_OK;
	}
	rc = hd_out_write_all(out, text, len, &call);
	free(text);
	if (rc) {
		hd_err("%s %s: %s", call, out, hd_fs_strerror(rc));
		return HD_EXIT_RUNTIME;
	}
	return HD_EXIT_OK;
}

int hd_cmd_sim(int argc, char **argv)
{
	const char *sub;
	int i;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			sim_usage(stdout);
			return HD_EXIT_OK;
		}
	if (argc < 2) {
		hd_err("missing what to do: list, show, info, locate, seek or import");
		return hd_usage_hint("sim");
	}
	sub = argv[1];
	if (strcmp(sub, "list") == 0) {
		if (argc != 2) {
			hd_err("too many arguments: '%s'", argv[2]);
			return hd_usage_hint("sim");
		}
		return sim_list();
	}
	if (strcmp(sub, "show") == 0 || strcmp(sub, "info") == 0) {
		if (argc != 3) {
			hd_err(argc < 3 ? "sim %s: missing MODEL" : "sim %s: too many arguments", sub);
			return hd_usage_hint("sim");
		}
		return sub[0] == 's' ? sim_show(argv[2]) : sim_info(argv[2]);
	}
	if (strcmp(sub, "locate") == 0 || strcmp(sub, "seek") == 0) {
		if (argc < 4) {
			hd_err("sim %s: missing MODEL and %s", sub, sub[0] == 'l' ? "OFFSET" : "DISTANCE");
			return hd_usage_hint("sim");
		}
		return sub[0] == 'l' ? sim_locate(argv[2], argc - 3, argv + 3)
				     : sim_seek(argv[2], argc - 3, argv + 3);
	}
	if (strcmp(sub, "import") == 0)
		return sim_import(argc, argv);
	hd_err("unknown sim command '%s'", sub);
	return hd_usage_hint("sim");
}

/* ---- replay ---- */

struct replay_opts {
	const char *drive, *out;
	uint64_t seed;
};

static const struct hd_option replay_options[] = {
	{ .name = "drive", .letter = 'd', .kind = HD_OPT_STRING, .arg = "MODEL", .off = offsetof(struct replay_opts, drive),
	  .help = "preset NAME or FILE.drive (required)" },
	{ .name = "output", .letter = 'o', .kind = HD_OPT_STRING, .arg = "FILE", .off = offsetof(struct replay_opts, out),
	  .help = "write one row per request to a data file (test: replay)" },
	{ .name = "seed", .kind = HD_OPT_COUNT, .arg = "N", .off = offsetof(struct replay_opts, seed), .def = "1",
	  .help = "seed of seek jitter and write retries" },
	HD_OPT_HELP_END,
};

static const struct hd_cmdspec replay_spec = {
	.name = "replay",
	.intro = "Usage: hddscope replay --drive MODEL [-o FILE] [--seed N] TRACE\n"
		 "\n"
		 "Replay the requests of TRACE on a simulated drive and report the simulated\n"
		 "service times; where the trace carries measured service times, compare the two\n"
		 "distributions.  Each request is issued when the previous one has completed and\n"
		 "its idle time has passed.\n"
		 "\n"
		 "TRACE lines (LBA and BLOCKS in 512-byte blocks, '#' starts a comment):\n"
		 "  R|W LBA BLOCKS [IDLE_US]\n"
		 "  R|W Hit|Miss|Doub|Trip LBN BLOCKS SERVICE_US NEXT_INTERARRIVAL_US   (DiskSim validate)\n"
		 "\n",
	.opts = replay_options,
	.outro = "\n"
		 "The summary gives mean and percentiles of both distributions, the fraction\n"
		 "of cache hits and the RMS horizontal distance between the simulated and the\n"
		 "measured service-time CDFs in ms (DiskSim's validation metric).\n"
		 "'hddscope plot FILE' draws the data file's two CDFs (plots/replay.gp).\n"
		 "\n"
		 "Exit codes: 0 ok, 1 usage, 2 bad model or trace, 3 cannot write the output.\n",
};

struct summary {
	double mean, p10, p50, p90, p99, max;
};

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void summarize(double *v, size_t n, struct summary *s)
{
	double sum = 0;
	size_t i;

	qsort(v, n, sizeof(*v), cmp_dbl);
	for (i = 0; i < n; i++)
		sum += v[i];
	s->mean = sum / n;
	s->p10 = v[(size_t)(0.10 * (n - 1))];
	s->p50 = v[(size_t)(0.50 * (n - 1))];
	s->p90 = v[(size_t)(0.90 * (n - 1))];
	s->p99 = v[(size_t)(0.99 * (n - 1))];
	s->max = v[n - 1];
}

static void print_summary(const char *label, const struct summary *s)
{
	printf("%-10s %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f\n", label, s->mean, s->p10, s->p50, s->p90,
	       s->p99, s->max);
}

static int write_rows(const char *path, const char *model_spec, const char *trace_path,
		      const struct hd_trace *t, const struct hd_sim_model *m, uint64_t seed, double rms)
{
	struct hd_df_writer *w;
	const char *call = "write";
	char a[32], b[32];
	FILE *f;
	size_t i;
	int rc = hd_dfw_open(&w, path, "replay");

	if (rc) {
		hd_err("create %s: %s", path, hd_fs_strerror(rc));
		return HD_EXIT_RUNTIME;
	}
	hd_dfw_meta(w, "device", "sim:%s", model_spec);
	hd_dfw_meta(w, "model", "%s", m->name);
	hd_dfw_meta(w, "capacity_bytes", "%llu", (unsigned long long)(m->sectors * m->sector_bytes));
	hd_dfw_meta(w, "sector_bytes", "%u", m->sector_bytes);
	hd_dfw_meta(w, "trace", "%s", trace_path);
	hd_dfw_meta(w, "params", "requests=%zu seed=%llu", t->n, (unsigned long long)seed);
	if (rms >= 0)
		hd_dfw_meta(w, "rms_ms", "%s", fmt_num(a, sizeof(a), rms, 4));
	hd_dfw_columns(w, t->has_measured ? "index op lba blocks sim_ms class measured_ms"
					  : "index op lba blocks sim_ms class");
	f = hd_dfw_rows(w);
	for (i = 0; i < t->n; i++) {
		const struct hd_trace_req *r = &t->req[i];

		fprintf(f, "%zu\t%s\t%llu\t%u\t%s\t%s", i, r->write ? "write" : "read",
			(unsigned long long)r->lba, r->blocks, fmt_num(a, sizeof(a), r->sim_us / 1e3, 4),
			r->result ? "error" : r->hit ? "cache" : "media");
		if (t->has_measured)
			fprintf(f, "\t%s", fmt_num(b, sizeof(b), r->measured_us / 1e3, 4));
		fputc('\n', f);
	}
	if ((rc = hd_dfw_finish(w, 1, &call))) {
		hd_err("%s %s: %s", call, path, hd_fs_strerror(rc));
		return HD_EXIT_RUNTIME;
	}
	return 0;
}

int hd_cmd_replay(int argc, char **argv)
{
	struct replay_opts o;
	const char *drive = NULL, *out = NULL, *trace_path;
	struct hd_sim_model *m = NULL;
	struct hd_trace *t = NULL;
	struct summary ss, ms;
	double *sim = NULL, *meas = NULL, rms = -1;
	uint64_t seed = 1;
	size_t i, hits = 0, errors = 0, nr = 0;
	char err[512];
	int c, ex;

	c = hd_opt_parse(&replay_spec, &o, sizeof(o), argc, argv);
	if (c != HD_OPT_GO)
		return c;
	drive = o.drive;
	out = o.out;
	seed = o.seed;
	if (!drive) {
		hd_err("missing --drive MODEL");
		return hd_usage_hint("replay");
	}
	if (argc - optind != 1) {
		hd_err(argc - optind ? "too many arguments: '%s'" : "missing TRACE%s",
		       argc - optind ? argv[optind + 1] : "");
		return hd_usage_hint("replay");
	}
	trace_path = argv[optind];
	if (out && (ex = hd_out_check_file(out))) {
		hd_err("%s: %s", out, hd_fs_strerror(ex));
		return HD_EXIT_SETUP;
	}
	if (strncmp(drive, "sim:", 4) == 0)
		drive += 4;
	if ((ex = load(drive, &m)))
		return ex;
	if (hd_trace_load(trace_path, &t, err, sizeof(err))) {
		hd_err("%s", err);
		ex = HD_EXIT_SETUP;
		goto out;
	}
	if (hd_trace_run(t, m, seed, err, sizeof(err))) {
		hd_err("%s: %s", trace_path, err);
		ex = HD_EXIT_SETUP;
		goto out;
	}
	sim = malloc(t->n * sizeof(*sim));
	meas = malloc(t->n * sizeof(*meas));
	if (!sim || !meas) {
		hd_err("out of memory");
		ex = HD_EXIT_RUNTIME;
		goto out;
	}
	for (i = 0; i < t->n; i++) {
		sim[i] = t->req[i].sim_us / 1e3;
		meas[i] = t->req[i].measured_us / 1e3;
		hits += t->req[i].hit;
		errors += t->req[i].result != 0;
		nr += !t->req[i].write;
	}
	if (t->has_measured)
		rms = hd_cdf_rms(sim, t->n, meas, t->n);
	if (out && (ex = write_rows(out, drive, trace_path, t, m, seed, rms)))
		goto out;
	printf("trace: %s (%zu requests: %zu reads, %zu writes)\n", trace_path, t->n, nr, t->n - nr);
	printf("drive: %s (%s)\n", drive, m->name);
	printf("%-10s %8s %8s %8s %8s %8s %8s\n", "ms", "mean", "p10", "p50", "p90", "p99", "max");
	summarize(sim, t->n, &ss);
	print_summary("simulated", &ss);
	if (t->has_measured) {
		summarize(meas, t->n, &ms);
		print_summary("measured", &ms);
	}
	printf("cache_hits: %.1f%% (simulated; writes into the write-back cache count as hits)\n",
	       100.0 * hits / t->n);
	if (errors)
		printf("errors: %zu\n", errors);
	if (t->has_measured)
		printf("rms_ms: %.4f (RMS horizontal distance between the service-time CDFs)\n", rms);
	ex = HD_EXIT_OK;
out:
	free(sim);
	free(meas);
	hd_trace_free(t);
	hd_sim_model_free(m);
	return ex;
}
