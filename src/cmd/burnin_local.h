/*
 * What the burnin command's files share (cmd_burnin.c runs the rounds,
 * cmd_burnin_json.c writes and reads the summaries and the metrics).
 */
#ifndef HDDSCOPE_BURNIN_LOCAL_H
#define HDDSCOPE_BURNIN_LOCAL_H

#include <stddef.h>
#include <stdint.h>

#include "hddscope/burnin.h"
#include "hddscope/identity.h"
#include "hddscope/json.h"

/* The version of burnin.json and of each device's device.json. */
#define BI_FORMAT_VERSION 1

/* What a burn-in was asked to do; saved, so that --resume goes on with it. */
struct bi_plan {
	double duration_s, every_s;
	uint64_t points, reps, seed;
	uint64_t rounds;	/* at most this many rounds; 0: as many as the time takes */
	size_t ndev;
	char **dev;		/* the DEVICE operands */
};

/* One device's burn-in: who it is, where its files go, its rounds so far and its verdict. */
struct bi_dev {
	const struct bi_plan *plan;
	size_t idx;
	const char *spec;
	char dir[4200];			/* the device's result directory */
	char name[200];			/* its name in the result directory */
	char model[64], serial[32], firmware[16];
	uint64_t capacity_bytes;
	int rpm_nominal, simulated;
	struct hd_burnin_smart before;
	struct hd_burnin_round *r;
	size_t n, cap;
	double elapsed_s;
	int complete;			/* ran its whole duration */
	int judged;
	struct hd_verdict v;
};

/* The SMART counters of an identity. */
void bi_smart_of(const struct hd_identity *id, struct hd_burnin_smart *s);

/* Write d as its device.json (through the output rule): 0 or -1 (printed). */
int bi_dev_save(const struct bi_dev *d);
/* Read d's rounds, SMART before and elapsed time back from its device.json: 0, or -1 (printed). */
int bi_dev_load(struct bi_dev *d);
void bi_dev_free(struct bi_dev *d);

/* The device object of the summaries. */
void bi_dev_json(struct hd_json *j, const char *key, const struct bi_dev *d);

/* dir/burnin.json: the plan and every device's object, complete or not: 0 or -1 (printed). */
int bi_summary_save(const char *dir, const struct bi_plan *p, struct bi_dev *devs, int complete);
/* The plan of dir/burnin.json, for --resume: 0 or -1 (printed). */
int bi_plan_load(const char *dir, struct bi_plan *p);
void bi_plan_free(struct bi_plan *p);

/* The verdicts and key figures in Prometheus's text format, to path atomically: 0 or -1 (printed). */
int bi_prom_save(const char *path, struct bi_dev *devs, size_t n);

#endif
