/*
 * hddscope verdict: PASS, WARN or FAIL for deployment, from a profile
 * directory's data files (never the device) and the drive's SMART data.
 * The rules and the decision are in verdict.c; this file reads the
 * options and rules files, checks that saved SMART data is the profiled
 * drive's, and prints the verdict.  It writes nothing: the profile's
 * files are its data, never the verdict's.
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/cli.h"
#include "hddscope/cmd.h"
#include "hddscope/fsutil.h"
#include "hddscope/identity.h"
#include "hddscope/json.h"
#include "hddscope/opt.h"
#include "hddscope/util.h"
#include "hddscope/verdict.h"

/*
 * The rules live with the decision (verdict.c); --rule and rules files set
 * their limits here, and --help lists them.
 */
static struct hd_verdict_rule *const rules = hd_verdict_rules;
#define NRULES HD_VERDICT_NRULES

/*
 * Set one rule from "NAME=VALUE".  A refused spec is quoted through
 * hd_quote: it may come from a file that is not text at all.
 */
static int set_rule(const char *src, const char *spec)
{
	char name[64], qs[128], qn[80];
	const char *eq = strchr(spec, '=');
	size_t n = eq ? (size_t)(eq - spec) : 0;
	double v;

	hd_quote(qs, sizeof(qs), spec);
	while (n && spec[n - 1] == ' ')
		n--;
	if (n == 0 || n >= sizeof(name)) {
		hd_err("%s '%s': expected NAME=VALUE", src, qs);
		return -1;
	}
	memcpy(name, spec, n);
	name[n] = '\0';
	hd_quote(qn, sizeof(qn), name);
	eq++;
	while (*eq == ' ')
		eq++;
	for (size_t i = 0; i < NRULES; i++)
		if (strcmp(rules[i].name, name) == 0) {
			if (hd_parse_double(eq, &v) || v < 0) {
				hd_err("%s '%s': %s must be a number >= 0", src, qs, qn);
				return -1;
			}
			rules[i].value = v;
			return 0;
		}
	hd_err("%s '%s': unknown rule '%s' (see hddscope verdict --help)", src, qs, qn);
	return -1;
}

/* The longest line of a rules file: its rules are short, so more is not a rules file. */
#define RULES_MAX_LINE 511

/* One line of a rules file, its comment and blanks dropped, as set_rule takes it. */
static int rules_line(const char *path, size_t lineno, char *line)
{
	char *p = line, *hash = strchr(line, '#'), where[4200];

	if (hash)
		*hash = '\0';
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return 0;
	for (char *e = p + strlen(p); e > p && (e[-1] == ' ' || e[-1] == '\t');)
		*--e = '\0';
	snprintf(where, sizeof(where), "%s:%zu:", path, lineno);
	return set_rule(where, p);
}

/*
 * A rules file: NAME = VALUE lines, '#' comments.  A CRLF line is read like
 * an LF one: nothing else reads this file.
 */
static int load_rules(const char *path)
{
	struct hd_lines l;
	char msg[4200];
	FILE *f;
	int rc = hd_in_open(path, &f);

	if (rc) {
		hd_in_strerror(msg, sizeof(msg), path, rc);
		hd_err("%s", msg);
		return -1;
	}
	if (hd_lines_init(&l, f, RULES_MAX_LINE)) {
		hd_err("%s: out of memory", path);
		fclose(f);
		return -1;
	}
	while ((rc = hd_lines_next(&l)) == 1)
		if (rules_line(path, l.lineno, l.buf))
			break;
	if (rc < 0) {
		hd_lines_strerror(msg, sizeof(msg), &l, path, rc);
		hd_err("%s", msg);
	}
	hd_lines_free(&l);
	fclose(f);
	return rc ? -1 : 0;
}

/* The profile's identity field key (model, serial): summary.json's, else a data file's header; NULL if unknown. */
static const char *profile_id(const struct hd_verdict_input *in, const char *key)
{
	char path[64];
	const char *v;

	snprintf(path, sizeof(path), "device.identity.%s", key);
	v = hd_jv_str(in->summary, path);
	for (size_t i = 0; !v && i < HD_PF_COUNT; i++)
		v = in->df[i] ? hd_df_meta(in->df[i], key) : NULL;
	return v && *v && strcmp(v, "unknown") != 0 ? v : NULL;
}

/*
 * Is the saved SMART data the profiled drive's?  Its model must be the
 * profile's, and its serial too where both have one; a profile that names
 * no model cannot be matched.  0, or -1 (printed).
 */
static int blob_matches(const char *path, const char *dir, const struct hd_identity *id,
			const struct hd_verdict_input *in)
{
	const char *model = profile_id(in, "model"), *serial = profile_id(in, "serial");
	char qm[200], qs[100], qp[200], qps[100];

	hd_quote(qm, sizeof(qm), id->model);
	hd_quote(qs, sizeof(qs), id->serial);
	if (!model) {
		hd_err("%s: refused: the profile %s names no drive model, so its SMART data cannot be matched", path, dir);
		return -1;
	}
	hd_quote(qp, sizeof(qp), model);
	if (strcmp(model, id->model) != 0) {
		hd_err("%s: refused: SMART data of model '%s', the profile %s is of '%s'", path, qm, dir, qp);
		return -1;
	}
	if (serial && id->serial[0] && strcmp(id->serial, "unknown") != 0 && strcmp(serial, id->serial) != 0) {
		hd_quote(qps, sizeof(qps), serial);
		hd_err("%s: refused: SMART data of serial '%s', the profile %s is of serial '%s'", path, qs, dir, qps);
		return -1;
	}
	return 0;
}

/* SMART health from saved data (--smart-blob) of the profiled drive; 0, or -1 (printed). */
static int smart_from_blob(const char *path, const char *dir, const struct hd_verdict_input *in,
			   struct hd_verdict_smart *sm)
{
	struct hd_identity id;
	char err[600];

	hd_identity_init(&id);
	if (hd_identity_from_blob_file(path, &id, err, sizeof(err))) {
		hd_err("%s", err);
		hd_identity_free(&id);
		return -1;
	}
	if (blob_matches(path, dir, &id, in)) {
		hd_identity_free(&id);
		return -1;
	}
	memset(sm, 0, sizeof(*sm));
	sm->available = id.smart_available;
	snprintf(sm->reason, sizeof(sm->reason), "%s", id.smart_reason);
	snprintf(sm->overall, sizeof(sm->overall), "%s", id.smart_overall);
	sm->have_bad = id.have_bad;
	sm->bad_sectors = id.bad_sectors;
	sm->have_temp = id.have_temp;
	sm->temperature_c = id.temperature_c;
	hd_identity_free(&id);
	return 0;
}

static void print_text(const struct hd_verdict *v)
{
	if (v->cannot[0])
		printf("cannot judge: %s\n", v->cannot);
	else
		printf("verdict: %s\n", hd_verdict_level_name(v->overall));
	for (size_t i = 0; i < v->n; i++)
		printf("%-5s %s\n", hd_verdict_level_name(v->r[i].level), v->r[i].text);
}

static void print_json(const char *dir, const struct hd_verdict *v)
{
	struct hd_json j;

	hd_json_init(&j, stdout, 1);
	hd_json_obj(&j, NULL);
	hd_json_str(&j, "verdict", v->cannot[0] ? "CANNOT_JUDGE" : hd_verdict_level_name(v->overall));
	hd_json_str(&j, "cannot_judge", v->cannot[0] ? v->cannot : NULL);
	hd_json_str(&j, "directory", dir);
	hd_json_arr(&j, "reasons");
	for (size_t i = 0; i < v->n; i++) {
		hd_json_obj(&j, NULL);
		hd_json_str(&j, "rule", v->r[i].rule);
		hd_json_str(&j, "level", hd_verdict_level_name(v->r[i].level));
		hd_json_num(&j, "figure", v->r[i].figure);
		hd_json_num(&j, "limit", v->r[i].limit);
		hd_json_str(&j, "text", v->r[i].text);
		hd_json_end(&j);
	}
	hd_json_end(&j);
	hd_json_obj(&j, "rules");
	for (size_t i = 0; i < NRULES; i++)
		hd_json_num(&j, rules[i].name, rules[i].value);
	hd_json_end(&j);
	hd_json_end(&j);
}

/* The rules and how a verdict is given, after the options in the help. */
static void verdict_rules_help(FILE *f)
{
	fprintf(f, "\nRules (defaults in parentheses):\n");
	for (size_t i = 0; i < NRULES; i++)
		fprintf(f, "  %-20s %s (%g)\n", rules[i].name, rules[i].help, rules[i].value);
	fprintf(f,
"A SMART overall assessment other than GOOD fails.  Write response needs\n"
"response.tsv with writes (profile --write, which takes them with --sync);\n"
"without it the verdict is at best WARN: \"write response not measured\".\n"
"A write is slow when it is slower than its distance's p10 by more than\n"
"1.1 revolutions (it went round once more).  Wald's sequential test, fed the\n"
"writes in the order they were taken, tells healthy (write_slow_ok or less)\n"
"from unstable (write_slow_warn or more) at the error rates write_risk_warn\n"
"and write_risk_pass; the slow-write rate comes with its 95%% (Wilson)\n"
"interval.  Where the writes cannot tell them apart the verdict is WARN,\n"
"\"undecided\".  Writes the drive's cache took, or a target that does not\n"
"rotate, cannot show write stability: \"cannot judge: REASON\", exit 6.\n"
"--smart-blob data of another model or serial than the profile's is refused.\n"
"\n"
"The verdict writes nothing; the profile directory is left as it is.\n"
"Exit codes: 0 PASS, 4 WARN, 5 FAIL, 6 cannot judge; 1 usage, 2 unreadable\n"
"directory, data or rules file, or --smart-blob of another drive.\n");
}

struct verdict_opts {
	int json;
	const char *blob;	/* --smart-blob FILE */
};

static int opt_rule(void *o, const char *arg)
{
	(void)o;
	return set_rule("--rule", arg) ? -1 : 0;
}

/* A rules file is input like the data: one it cannot take is a setup failure. */
static int opt_rules(void *o, const char *arg)
{
	(void)o;
	return load_rules(arg) ? HD_EXIT_SETUP : 0;
}

static const struct hd_option verdict_options[] = {
	{ .name = "json", .kind = HD_OPT_FLAG, .off = offsetof(struct verdict_opts, json),
	  .help = "machine-readable output" },
	{ .name = "rule", .kind = HD_OPT_CALL, .arg = "NAME=VALUE", .call = opt_rule,
	  .help = "override a rule's limit (repeatable)" },
	{ .name = "rules", .kind = HD_OPT_CALL, .arg = "FILE", .call = opt_rules,
	  .help = "rule overrides from a file: NAME = VALUE lines, '#' comments" },
	{ .name = "smart-blob", .kind = HD_OPT_STRING, .arg = "FILE", .off = offsetof(struct verdict_opts, blob),
	  .help = "SMART health from saved data instead of summary.json's" },
	HD_OPT_HELP_END,
};

static const struct hd_cmdspec verdict_spec = {
	.name = "verdict",
	.intro = "Usage: hddscope verdict [OPTIONS] DIR\n"
		 "\n"
		 "Judge a profile directory (hddscope profile --write) for deployment: PASS,\n"
		 "WARN or FAIL, with every reason and the figure behind it.  Works from the\n"
		 "data files alone; the drive is not touched.\n"
		 "\n",
	.opts = verdict_options,
	.extra_help = verdict_rules_help,
};

int hd_cmd_verdict(int argc, char **argv)
{
	struct verdict_opts o;
	struct hd_verdict_input in;
	struct hd_verdict_smart sm;
	struct hd_verdict v;
	const char *dir, *blob = NULL;
	char err[600];
	int c, json = 0, ex;

	c = hd_opt_parse(&verdict_spec, &o, sizeof(o), argc, argv);
	if (c != HD_OPT_GO)
		return c;
	json = o.json;
	blob = o.blob;
	if (argc - optind != 1) {
		hd_err(argc - optind ? "one profile directory, please" : "no profile directory given");
		return hd_usage_hint("verdict");
	}
	dir = argv[optind];
	if (access(dir, R_OK | X_OK) != 0) {
		hd_err("open %s: %s", dir, strerror(errno));
		return HD_EXIT_SETUP;
	}
	if (hd_verdict_load(dir, &in, err, sizeof(err))) {
		hd_err("%s", err);
		hd_verdict_input_free(&in);
		return HD_EXIT_SETUP;
	}
	if (blob) {
		if (smart_from_blob(blob, dir, &in, &sm)) {
			hd_verdict_input_free(&in);
			return HD_EXIT_SETUP;
		}
		hd_verdict_judge(&in, &sm, "saved SMART data", &v);
	} else if (hd_verdict_smart_from_summary(in.summary, &sm) == 0) {
		hd_verdict_judge(&in, &sm, "as the profile recorded it", &v);
	} else {
		hd_verdict_judge(&in, NULL, "no summary.json and no --smart-blob", &v);
	}
	if (json)
		print_json(dir, &v);
	else
		print_text(&v);
	ex = v.overall == HD_VERDICT_FAIL ? HD_EXIT_FAIL : v.overall == HD_VERDICT_WARN ? HD_EXIT_WARN : HD_EXIT_OK;
	if (v.cannot[0])
		ex = HD_EXIT_CANNOT_JUDGE;
	hd_verdict_input_free(&in);
	return ex;
}
