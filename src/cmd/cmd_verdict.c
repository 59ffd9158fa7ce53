/*
 * hddscope verdict: PASS, WARN or FAIL for deployment, from a profile
 * directory's data files (never the device) and the drive's SMART data.
 * The rules and the decision are in verdict.c; this file reads the
 * options and rules files, prints the verdict and stores it in
 * summary.json.
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

/* SMART health from saved data (--smart-blob); 0, or -1 (printed). */
static int smart_from_blob(const char *path, struct hd_verdict_smart *sm)
{
	struct hd_identity id;
	char err[600];

	hd_identity_init(&id);
	if (hd_identity_from_blob_file(path, &id, err, sizeof(err))) {
		hd_err("%s", err);
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
	printf("verdict: %s\n", hd_verdict_level_name(v->overall));
	for (size_t i = 0; i < v->n; i++)
		printf("%-5s %s\n", hd_verdict_level_name(v->r[i].level), v->r[i].text);
}

static void print_json(const char *dir, const struct hd_verdict *v)
{
	struct hd_json j;

	hd_json_init(&j, stdout, 1);
	hd_json_obj(&j, NULL);
	hd_json_str(&j, "verdict", hd_verdict_level_name(v->overall));
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

/* The verdict into dir/summary.json (sum, its document) as "verdict"; a failure is only warned of. */
static void store_verdict(const char *dir, struct hd_jv *sum, const struct hd_verdict *v)
{
	struct hd_jv *o = hd_jv_new(HD_JV_OBJ), *arr = hd_jv_new(HD_JV_ARR);
	int bad = !o || !arr || hd_jv_set(o, "result", hd_jv_new_str(hd_verdict_level_name(v->overall)));
	char path[4096];

	snprintf(path, sizeof(path), "%s/summary.json", dir);
	for (size_t i = 0; !bad && i < v->n; i++) {
		char line[700];
		struct hd_jv *t;

		snprintf(line, sizeof(line), "%s %s", hd_verdict_level_name(v->r[i].level), v->r[i].text);
		t = hd_jv_new_str(line);
		if (!t || hd_jv_append(arr, t)) {
			hd_jv_free(t);
			bad = 1;
		}
	}
	/* hd_jv_set takes its value, on failure too. */
	if (!bad) {
		bad = hd_jv_set(o, "reasons", arr);
		arr = NULL;
	}
	if (!bad) {
		bad = hd_jv_set(sum, "verdict", o);
		o = NULL;
	}
	if (bad || hd_jv_save(path, sum))
		hd_warn("could not store the verdict in %s", path);
	hd_jv_free(o);
	hd_jv_free(arr);
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
"\n"
"The verdict is also stored in DIR/summary.json as \"verdict\".\n"
"Exit codes: 0 PASS, 4 WARN, 5 FAIL; 1 usage, 2 unreadable directory, data or rules file.\n");
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
		if (smart_from_blob(blob, &sm)) {
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
	/* Keep it with the profile. */
	if (in.summary)
		store_verdict(dir, in.summary, &v);
	ex = v.overall == HD_VERDICT_FAIL ? HD_EXIT_FAIL : v.overall == HD_VERDICT_WARN ? HD_EXIT_WARN : HD_EXIT_OK;
	hd_verdict_input_free(&in);
	return ex;
}
