/* Size, number and duration parsing: suffixes, fractions, overflow, junk. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "hddscope/util.h"
#include "testutil.h"

struct size_case {
	const char *in;
	int rc;
	uint64_t want;
};

static const struct size_case size_cases[] = {
	{ "0", 0, 0 },
	{ "4096", 0, 4096 },
	{ "4k", 0, 4096 },
	{ "4K", 0, 4096 },
	{ "256k", 0, 262144 },
	{ "1m", 0, 1048576 },
	{ "1M", 0, 1048576 },
	{ "1g", 0, 1073741824 },
	{ "2t", 0, 2199023255552ULL },
	{ "1kb", 0, 1024 },
	{ "1KiB", 0, 1024 },
	{ "1.5k", 0, 1536 },
	{ "1.5g", 0, 1610612736 },
	{ "0.5m", 0, 524288 },
	{ "+8", 0, 8 },
	{ "8388607t", 0, 8388607ULL << 40 },
	{ "8388608t", -ERANGE, 0 },
	{ "99999999999t", -ERANGE, 0 },
	{ "9223372036854775807", 0, 9223372036854775807ULL },
	{ "9223372036854775808", -ERANGE, 0 },
	{ "99999999999999999999999", -ERANGE, 0 },
	{ "1.3k", -EDOM, 0 },
	{ "0.1", -EDOM, 0 },
	{ "-1", -EINVAL, 0 },
	{ "-4k", -EINVAL, 0 },
	{ "", -EINVAL, 0 },
	{ "k", -EINVAL, 0 },
	{ "1.5q", -EINVAL, 0 },
	{ "12x", -EINVAL, 0 },
	{ "1.", -EINVAL, 0 },
	{ ".5k", -EINVAL, 0 },
	{ "1 k", -EINVAL, 0 },
	{ "1kk", -EINVAL, 0 },
	{ "0x10", -EINVAL, 0 },
	{ "1e3", -EINVAL, 0 },
};

START_TEST(test_size_table)
{
	const struct size_case *c = &size_cases[_i];
	uint64_t v = 12345;
	int rc = hd_parse_size(c->in, &v);

	ck_assert_msg(rc == c->rc, "'%s': rc %d, want %d", c->in, rc, c->rc);
	if (c->rc == 0)
		ck_assert_msg(v == c->want, "'%s': %llu, want %llu", c->in, (unsigned long long)v,
			      (unsigned long long)c->want);
	else
		ck_assert_msg(v == 12345, "'%s': output written on error", c->in);
}
END_TEST

START_TEST(test_u64)
{
	uint64_t v;

	ck_assert_int_eq(hd_parse_u64("2000", &v), 0);
	ck_assert_uint_eq(v, 2000);
	ck_assert_int_eq(hd_parse_u64("18446744073709551615", &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(hd_parse_u64("18446744073709551616", &v), -ERANGE);
	ck_assert_int_eq(hd_parse_u64("-3", &v), -EINVAL);
	ck_assert_int_eq(hd_parse_u64("3k", &v), -EINVAL);
	ck_assert_int_eq(hd_parse_u64("3.5", &v), -EDOM);
	ck_assert_int_eq(hd_parse_u64("", &v), -EINVAL);
}
END_TEST

START_TEST(test_double)
{
	double v;

	ck_assert_int_eq(hd_parse_double("14.213", &v), 0);
	ck_assert_double_eq(v, 14.213);
	/* Correctly rounded: the nearest double, as the compiler reads the literal. */
	ck_assert_int_eq(hd_parse_double("0.750000", &v), 0);
	ck_assert_double_eq(v, 0.75);
	ck_assert_int_eq(hd_parse_double("8.333333", &v), 0);
	ck_assert_double_eq(v, 8.333333);
	ck_assert_int_eq(hd_parse_double("0x10", &v), -EINVAL);
	ck_assert_int_eq(hd_parse_double("nan", &v), -EINVAL);
	ck_assert_int_eq(hd_parse_double("inf", &v), -EINVAL);
	ck_assert_int_eq(hd_parse_double("-1073737728", &v), 0);
	ck_assert_double_eq(v, -1073737728.0);
	ck_assert_int_eq(hd_parse_double("2.5e-3", &v), 0);
	ck_assert_double_eq(v, 0.0025);
	ck_assert_int_eq(hd_parse_double("1,5", &v), -EINVAL);
	ck_assert_int_eq(hd_parse_double("media", &v), -EINVAL);
	ck_assert_int_eq(hd_parse_double("1e", &v), -EINVAL);
	ck_assert_int_eq(hd_parse_double("", &v), -EINVAL);
	ck_assert_int_eq(hd_parse_double("1e999", &v), -EINVAL);
	/* Too small to hold: the nearest double, whether subnormal or zero. */
	ck_assert_int_eq(hd_parse_double("1e-310", &v), 0);
	ck_assert(v > 0 && v < 1e-300);
	ck_assert_int_eq(hd_parse_double("1e-400", &v), 0);
	ck_assert_double_eq(v, 0);
}
END_TEST

struct dur_case {
	const char *in;
	int rc;
	int64_t want;
};

/* Out-of-range values are refused before any conversion to an integer. */
static const struct dur_case dur_cases[] = {
	{ "3", 0, 3000000000LL },
	{ "3s", 0, 3000000000LL },
	{ "500ms", 0, 500000000LL },
	{ "2m", 0, 120000000000LL },
	{ "1h", 0, 3600000000000LL },
	{ "1ns", 0, 1 },
	{ "1.5us", 0, 1500 },
	{ "1000000s", 0, 1000000000000000LL },
	{ "1000001s", -ERANGE, 0 },
	{ "1e300", -ERANGE, 0 },
	{ "1e300h", -ERANGE, 0 },
	{ "1e-300", -ERANGE, 0 },
	{ "0.4ns", -ERANGE, 0 },
	{ "0", -EINVAL, 0 },
	{ "-1s", -EINVAL, 0 },
	{ "", -EINVAL, 0 },
	{ "s", -EINVAL, 0 },
	{ "3x", -EINVAL, 0 },
	{ "inf", -EINVAL, 0 },
	{ "nan", -EINVAL, 0 },
};

START_TEST(test_duration_table)
{
	const struct dur_case *c = &dur_cases[_i];
	int64_t v = 12345;
	int rc = hd_parse_duration(c->in, &v);

	ck_assert_msg(rc == c->rc, "'%s': rc %d, want %d", c->in, rc, c->rc);
	if (rc == 0)
		ck_assert_msg(v == c->want, "'%s': %lld, want %lld", c->in, (long long)v, (long long)c->want);
}
END_TEST

START_TEST(test_fmt_size)
{
	char b[32];

	ck_assert_str_eq(hd_fmt_size(b, sizeof(b), 268435456), "256 MiB");
	ck_assert_str_eq(hd_fmt_size(b, sizeof(b), 1536), "1.5 KiB");
	ck_assert_str_eq(hd_fmt_size(b, sizeof(b), 100), "100 B");
}
END_TEST

int main(void)
{
	return tu_main("size", "parse", NULL, NULL,
		       TU_TESTS(TU_LOOP(test_size_table, size_cases), TU_TEST(test_u64), TU_TEST(test_double),
				TU_TEST(test_fmt_size), TU_LOOP(test_duration_table, dur_cases)));
}
