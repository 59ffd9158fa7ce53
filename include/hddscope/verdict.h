/*
 * The deployment verdict's decision: the rules with their limits, the
 * figures read from a profile directory's data files and summary.json, and
 * a list of reasons, each with its level, figure and limit.  Nothing here
 * prints; the verdict command prints and stores the result.
 */
#ifndef HDDSCOPE_VERDICT_H
#define HDDSCOPE_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "hddscope/datafile.h"
#include "hddscope/json.h"
#include "hddscope/profile_files.h"

enum hd_verdict_level { HD_VERDICT_PASS, HD_VERDICT_WARN, HD_VERDICT_FAIL, HD_VERDICT_INFO };

/* "PASS", "WARN", "FAIL" or "INFO". */
const char *hd_verdict_level_name(enum hd_verdict_level l);

/* A rule: its name, its limit (a default that --rule or a rules file overrides) and its help line. */
struct hd_verdict_rule {
	const char *name;
	double value;
	const char *help;
};

#define HD_VERDICT_NRULES 15
extern struct hd_verdict_rule hd_verdict_rules[HD_VERDICT_NRULES];

/* A profile directory's data files (by enum hd_profile_file_id, NULL where absent) and summary.json. */
struct hd_verdict_input {
	struct hd_df *df[HD_PF_COUNT];
	struct hd_jv *summary;		/* NULL when the directory has none */
};

/*
 * Read dir's data files and summary.json into in.  0, or -1 with the
 * message in err (a file it cannot read, no data file at all); either way
 * hd_verdict_input_free releases what was read.
 */
int hd_verdict_load(const char *dir, struct hd_verdict_input *in, char *err, size_t errlen);
void hd_verdict_input_free(struct hd_verdict_input *in);

/* SMART health as the verdict judges it. */
struct hd_verdict_smart {
	int available;
	char reason[160];		/* why not, when not available */
	char overall[32];		/* "GOOD", ... or "unknown" */
	int have_bad, have_temp;
	uint64_t bad_sectors;
	double temperature_c;
};

/* SMART as the profile recorded it in summary.json (device.smart): 0, or -1 when it has none. */
int hd_verdict_smart_from_summary(const struct hd_jv *summary, struct hd_verdict_smart *sm);

struct hd_verdict_reason {
	const char *rule;
	enum hd_verdict_level level;
	double figure, limit;		/* NAN where the rule has none */
	char text[600];
};

struct hd_verdict {
	struct hd_verdict_reason r[32];
	size_t n;
	enum hd_verdict_level overall;	/* the worst level of a reason, INFO aside */
	char cannot[600];		/* why write stability cannot be judged; empty when it can */
};

/*
 * A reason into v (at most 32; further ones are dropped): its rule, level,
 * figure and limit (NAN where there is none) and its text; v->overall
 * takes the level where it is worse, INFO aside.
 */
void hd_verdict_add(struct hd_verdict *v, const char *rule, enum hd_verdict_level l, double figure, double limit,
		    const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/*
 * Judge in under the rules: write response, stalls, I/O errors and SMART
 * (sm NULL when there is none; smart_from says where it came from, or why
 * there is none).  Write stability is not judged from writes the drive's
 * cache took, nor on a target that does not rotate: v->cannot says why.
 */
void hd_verdict_judge(const struct hd_verdict_input *in, const struct hd_verdict_smart *sm, const char *smart_from,
		      struct hd_verdict *v);

#endif
