/*
 * The burn-in's decision (analysis/burnin.c) on rounds whose figures are
 * set by hand, one case per row: what each rule flags, and what it must
 * not; and the simulated SMART counters of the faults that come with time.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/burnin.h"
#include "hddscope/sim.h"
#include "testutil.h"

#define NR 8

/* A case: every round's writes and slow ones, write p99, errors; SMART before and after. */
struct jcase {
	const char *name;
	uint64_t slow[NR];
	double p99[NR];
	uint64_t errors;
	int smart;			/* SMART available */
	uint64_t realloc_after;		/* from round 4 on; 0 before */
	size_t nrounds;
	enum hd_verdict_level want;
	const char *rule;		/* the rule that must say want (NULL: none in particular) */
	uint64_t writes;		/* per round; 0: 2000 */
};

static const struct jcase cases[] = {
	/* 0.3% slow in every round of 2000 writes, p99 steady: PASS. */
	{ "steady", { 6, 6, 6, 6, 6, 6, 6, 6 }, { 11, 11, 11.2, 11, 11.1, 11, 11.2, 11 }, 0, 1, 0, NR,
	  HD_VERDICT_PASS, NULL, 0 },
	/* 0.3% then 1.5%: the later half's interval lies above the earlier's. */
	{ "slow drift", { 6, 6, 6, 6, 30, 30, 30, 30 }, { 11, 11, 11, 11, 11, 11, 11, 11 }, 0, 1, 0, NR,
	  HD_VERDICT_FAIL, "burnin_slow_drift", 0 },
	/* 0.3% then 0.45%: the intervals overlap, no drift. */
	{ "slow noise", { 6, 6, 6, 6, 9, 9, 9, 9 }, { 11, 11, 11, 11, 11, 11, 11, 11 }, 0, 1, 0, NR,
	  HD_VERDICT_PASS, NULL, 0 },
	/*
	 * 0.30% then 0.36% of 2000000 writes a round: intervals apart (about
	 * +-0.004%) but not 1.5 times: no drift.
	 */
	{ "slow small", { 6000, 6000, 6000, 6000, 7200, 7200, 7200, 7200 }, { 11, 11, 11, 11, 11, 11, 11, 11 }, 0, 1,
	  0, NR, HD_VERDICT_PASS, NULL, 2000000 },
	/* p99 up by a third, slow rate steady. */
	{ "p99 drift", { 6, 6, 6, 6, 6, 6, 6, 6 }, { 11, 11, 11, 11, 15, 15, 15, 15 }, 0, 1, 0, NR,
	  HD_VERDICT_FAIL, "burnin_p99_drift", 0 },
	/* p99 up by a fifth: below 1.25. */
	{ "p99 noise", { 6, 6, 6, 6, 6, 6, 6, 6 }, { 11, 11, 11, 11, 13.2, 13.2, 13.2, 13.2 }, 0, 1, 0, NR,
	  HD_VERDICT_PASS, NULL, 0 },
	{ "reallocated", { 6, 6, 6, 6, 6, 6, 6, 6 }, { 11, 11, 11, 11, 11, 11, 11, 11 }, 0, 1, 3, NR,
	  HD_VERDICT_FAIL, "burnin_smart", 0 },
	{ "errors", { 6, 6, 6, 6, 6, 6, 6, 6 }, { 11, 11, 11, 11, 11, 11, 11, 11 }, 2, 1, 0, NR,
	  HD_VERDICT_FAIL, "burnin_errors", 0 },
	{ "no smart", { 6, 6, 6, 6, 6, 6, 6, 6 }, { 11, 11, 11, 11, 11, 11, 11, 11 }, 0, 0, 0, NR,
	  HD_VERDICT_WARN, "burnin_smart", 0 },
	{ "one round", { 6 }, { 11 }, 0, 1, 0, 1, HD_VERDICT_WARN, "burnin_rounds", 0 },
};

static void smart(struct hd_burnin_smart *s, int available, uint64_t realloc_n)
{
	memset(s, 0, sizeof(*s));
	s->available = available;
	s->temperature_c = NAN;
	for (int c = 0; c < HD_BI_NCOUNTERS; c++)
		s->have[c] = available;
	s->v[HD_BI_REALLOC] = realloc_n;
}

START_TEST(test_judge)
{
	const struct jcase *c = &cases[_i];
	struct hd_burnin_round r[NR];
	struct hd_burnin_smart before;
	struct hd_verdict v;
	int said = c->rule == NULL;

	memset(r, 0, sizeof(r));
	smart(&before, c->smart, 0);
	for (size_t i = 0; i < c->nrounds; i++) {
		r[i].index = (unsigned)i + 1;
		r[i].writes = c->writes ? c->writes : 2000;
		r[i].slow = c->slow[i];
		r[i].write_p99_ms = c->p99[i];
		r[i].errors = i == 2 ? c->errors : 0;
		smart(&r[i].smart, c->smart, i >= 3 ? c->realloc_after : 0);
	}
	hd_burnin_judge(r, c->nrounds, &before, &v);
	ck_assert_msg(v.overall == c->want, "%s: %s, want %s", c->name, hd_verdict_level_name(v.overall),
		      hd_verdict_level_name(c->want));
	for (size_t i = 0; i < v.n; i++) {
		if (c->rule && strcmp(v.r[i].rule, c->rule) == 0 && v.r[i].level == c->want)
			said = 1;
		/* Nothing else fails a case that is about one rule. */
		if (c->rule && v.r[i].level == HD_VERDICT_FAIL && strcmp(v.r[i].rule, c->rule) != 0 &&
		    strcmp(v.r[i].rule, "burnin_slow_unstable") != 0)
			ck_abort_msg("%s: %s fails too: %s", c->name, v.r[i].rule, v.r[i].text);
	}
	ck_assert_msg(said, "%s: no %s reason", c->name, c->rule);
	if (c->realloc_after)
		ck_assert_msg(strstr(v.r[v.n - 1].text, "first in round 4") || strstr(v.r[v.n - 2].text, "first in round 4"),
			      "%s: the round it first moved in", c->name);
}
END_TEST

/* bad_sectors_count sectors at bad_sectors_after_hours, none before. */
START_TEST(test_sim_counts)
{
	static const char text[] = "format = 1\nrpm = 7200\nsector_bytes = 512\nsurfaces = 1\nzone = 0 99 100 0 0\n"
				   "seek = 1 1.0\nseek = 10 2.0\nbad_sectors_after_hours = 2.5\nbad_sectors_count = 7\n";
	struct hd_sim_model *m;
	char err[256];
	uint64_t a, p;

	ck_assert_msg(hd_sim_model_parse(text, strlen(text), "t.drive", &m, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(m->smart, 1);
	hd_sim_smart_counts(m, (int64_t)(2.5 * 3.6e12) - 1, &a, &p);
	ck_assert(a == 0 && p == 0);
	hd_sim_smart_counts(m, (int64_t)(2.5 * 3.6e12), &a, &p);
	ck_assert(a == 7 && p == 7);
	hd_sim_model_free(m);
}
END_TEST

int main(void)
{
	return tu_main("burnin", "judge", NULL, NULL, TU_TESTS(TU_LOOP(test_judge, cases), TU_TEST(test_sim_counts)));
}
