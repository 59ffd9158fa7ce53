/*
 * Fuzz harness: the number parsers of util.h (hd_parse_size, hd_parse_u64,
 * hd_parse_double, hd_parse_duration), which every command-line size,
 * count and duration goes through.  Besides not crashing, each accepted
 * input is checked against an independent reading of the same text
 * (strtoull, strtod) and against the documented ranges, and a size without
 * a suffix must scale exactly when "k" is appended.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "hddscope/util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* "[+]digits" (what hd_parse_u64 accepts), read by strtoull; -1 when not that shape or too big. */
static int plain_u64(const char *s, uint64_t *v)
{
	const char *p = *s == '+' ? s + 1 : s;
	char *end;

	if (*p < '0' || *p > '9')
		return -1;
	for (const char *q = p; *q; q++)
		if (*q < '0' || *q > '9')
			return -1;
	errno = 0;
	*v = strtoull(p, &end, 10);
	return errno == ERANGE ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size);
	uint64_t sz = 0, u = 0, ref;
	int64_t ns = 0;
	double d = 0;
	int rs, ru, rd, rn;

	rs = hd_parse_size(s, &sz);
	ru = hd_parse_u64(s, &u);
	rd = hd_parse_double(s, &d);
	rn = hd_parse_duration(s, &ns);

	/* Only the documented error codes, and a message for each. */
	FUZZ_CHECK(rs == 0 || rs == -EINVAL || rs == -ERANGE || rs == -EDOM);
	FUZZ_CHECK(ru == 0 || ru == -EINVAL || ru == -ERANGE || ru == -EDOM);
	FUZZ_CHECK(rd == 0 || rd == -EINVAL);
	FUZZ_CHECK(rn == 0 || rn == -EINVAL || rn == -ERANGE);
	FUZZ_CHECK(hd_parse_strerror(rs) != NULL);

	if (rs == 0)
		FUZZ_CHECK(sz <= (uint64_t)INT64_MAX);
	/* A plain integer means the same to every integer parser. */
	if (ru == 0) {
		FUZZ_CHECK(plain_u64(s, &ref) == 0 && ref == u);
		if (u <= (uint64_t)INT64_MAX)
			FUZZ_CHECK(rs == 0 && sz == u);
		else
			FUZZ_CHECK(rs == -ERANGE);
	} else if (ru == -ERANGE) {
		FUZZ_CHECK(rs == -ERANGE);
	}
	if (rd == 0) {
		char *end;
		double ref_d = strtod(s, &end);

		/* The C locale is in force here: strtod is the reference. */
		FUZZ_CHECK(isfinite(d) && *end == '\0' && ref_d == d);
	}
	/* An integer is a double too, and the same one. */
	if (ru == 0)
		FUZZ_CHECK(rd == 0 && d == strtod(s, NULL));
	if (rn == 0)
		FUZZ_CHECK(ns > 0 && ns <= 1000000000000000LL);
	/*
	 * A bare number of seconds is a duration of that many seconds (for the
	 * texts of up to 63 characters hd_parse_duration reads at all).
	 */
	if (rd == 0 && d > 0 && d * 1e9 <= 1e15 && llround(d * 1e9) > 0 && strlen(s) < 64)
		FUZZ_CHECK(rn == 0 && ns == llround(d * 1e9));

	/*
	 * Appending "k" multiplies a suffix-less size by exactly 1024.  The
	 * string ends at its first NUL, which the input may hold anywhere.
	 */
	size_t n = strlen(s);
	if (rs == 0 && n > 0 && s[n - 1] >= '0' && s[n - 1] <= '9') {
		char *k = malloc(n + 2);
		uint64_t kv = 0;
		int rk;

		FUZZ_CHECK(k != NULL);
		memcpy(k, s, n);
		memcpy(k + n, "k", 2);
		rk = hd_parse_size(k, &kv);
		if (sz <= (uint64_t)INT64_MAX / 1024)
			FUZZ_CHECK(rk == 0 && kv == sz * 1024);
		else
			FUZZ_CHECK(rk == -ERANGE);
		free(k);
	}
	free(s);
	return 0;
}
