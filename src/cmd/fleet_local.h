/*
 * What table and report share of burn-in results (fleet.c): which kind of
 * directory an operand is, every drive of the burn-in directories given
 * (a device directory with its device.json, or a whole result directory
 * with its burnin.json, expanded to its devices), the worst first, and
 * each drive's row of figures as device.json holds them.
 */
#ifndef HDDSCOPE_FLEET_LOCAL_H
#define HDDSCOPE_FLEET_LOCAL_H

#include <stddef.h>
#include <stdio.h>

#include "hddscope/json.h"

/* What an operand is: a profile, a burn-in device directory, a burn-in result directory. */
enum fl_kind { FL_PROFILE, FL_DEVICE, FL_RESULT };

/* dir's kind (device.json first, then burnin.json, else a profile), or -errno of stat (printed). */
int fl_kind(const char *dir);

/*
 * Check that the n operands are all profiles or all burn-ins: the kind
 * family (0 profiles, 1 burn-ins) or the exit code's negation (printed):
 * cmd names the command in the message.
 */
int fl_family(const char *cmd, char *const *dirs, size_t n);

struct fl_drive {
	char dir[4096];		/* its directory, as given or under the result directory given */
	char where[512];	/* the last two components of dir: host (result directory) and NN-NAME */
	struct hd_jv *doc;	/* its device.json */
	int rank;		/* 0 FAIL, 1 WARN, 2 PASS, 3 not judged */
	size_t order;		/* its place among the operands, for a stable sort */
};

struct fl_fleet {
	struct fl_drive *d;
	size_t n, cap;
};

/* Every drive of the burn-in operands, the worst first: the exit code (errors printed). */
int fl_load(char *const *dirs, size_t n, struct fl_fleet *f);
void fl_free(struct fl_fleet *f);

/* The row of a drive: where, device, model, serial, verdict, rounds, the last round's figures, ... */
#define FL_NCOL 15
#define FL_CELL 1024
extern const char *const fl_head[FL_NCOL];
extern const int fl_numeric[FL_NCOL];	/* right-aligned */
void fl_cells(const struct fl_drive *d, char cell[FL_NCOL][FL_CELL]);

/* The drive's verdict ("PASS", "WARN", "FAIL" or "none") and its last round (NULL without rounds). */
const char *fl_verdict(const struct fl_drive *d);
const struct hd_jv *fl_last_round(const struct fl_drive *d);

/* A number of a JSON value as text with fmt, "-" where absent or null. */
void fl_num(char *buf, size_t len, const struct hd_jv *v, const char *path, const char *fmt);

/* The report's HTML escape and style sheet (cmd_report.c), and the fleet page (cmd_report_fleet.c). */
void hd_report_esc(FILE *f, const char *s);
extern const char hd_report_css[];
int hd_report_fleet(const char *out, char *const *dirs, size_t n, int charts);

#endif
