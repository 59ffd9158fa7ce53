/* JSON: the writer's output parses back to the same values; malformed text is refused with its line. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/json.h"
#include "testutil.h"

START_TEST(test_round_trip)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct hd_json j;
	struct hd_jv *v, *copy;

	hd_json_init(&j, f, 1);
	hd_json_obj(&j, NULL);
	hd_json_str(&j, "model", "Quantum \"Atlas\" III\tx\\y");
	hd_json_uint(&j, "capacity_bytes", 9178112000ULL);
	hd_json_num(&j, "rpm", 7199.87);
	hd_json_num(&j, "nan", 0.0 / 0.0);
	hd_json_bool(&j, "ok", 1);
	hd_json_arr(&j, "list");
	hd_json_int(&j, NULL, -3);
	hd_json_obj(&j, NULL);
	hd_json_end(&j);
	hd_json_arr(&j, NULL);
	hd_json_end(&j);
	hd_json_end(&j);
	hd_json_obj(&j, "fit");
	hd_json_num(&j, "avg_seek_ms", 8.5);
	hd_json_end(&j);
	hd_json_end(&j);
	fclose(f);

	ck_assert_msg(hd_jv_parse(buf, len, "mem", &v, err, sizeof(err)) == 0, "%s\n%s", err, buf);
	ck_assert_str_eq(hd_jv_str(v, "model"), "Quantum \"Atlas\" III\tx\\y");
	ck_assert_double_eq(hd_jv_num(v, "capacity_bytes", 0), 9178112000.0);
	ck_assert_double_eq(hd_jv_num(v, "rpm", 0), 7199.87);
	ck_assert_int_eq(hd_jv_get(v, "nan")->type, HD_JV_NULL);
	ck_assert_double_eq(hd_jv_num(v, "ok", 0), 1);
	ck_assert_int_eq(hd_jv_get(v, "list")->n, 3);
	ck_assert_double_eq(hd_jv_get(v, "list")->items[0]->num, -3);
	ck_assert_double_eq(hd_jv_num(v, "fit.avg_seek_ms", 0), 8.5);
	ck_assert_double_eq(hd_jv_num(v, "fit.absent", -1), -1);
	ck_assert_ptr_null(hd_jv_get(v, "model.deeper"));

	/* Replace a section, add one, write, read again. */
	{
		struct hd_jv *fit = hd_jv_new(HD_JV_OBJ), *rpm = hd_jv_new(HD_JV_NUM), *verdict = hd_jv_new(HD_JV_STR);
		char path[] = "/tmp/hddscope-json-XXXXXX";
		int fd = mkstemp(path);

		ck_assert_int_ge(fd, 0);
		close(fd);
		rpm->num = 10045;
		ck_assert_int_eq(hd_jv_set(fit, "rpm", rpm), 0);
		ck_assert_int_eq(hd_jv_set(v, "fit", fit), 0);
		verdict->str = strdup("PASS");
		ck_assert_int_eq(hd_jv_set(v, "verdict", verdict), 0);
		ck_assert_int_eq(hd_jv_save(path, v), 0);
		ck_assert_msg(hd_jv_load(path, &copy, err, sizeof(err)) == 0, "%s", err);
		ck_assert_double_eq(hd_jv_num(copy, "fit.rpm", 0), 10045);
		ck_assert_double_eq(hd_jv_num(copy, "fit.avg_seek_ms", -1), -1);
		ck_assert_str_eq(hd_jv_str(copy, "verdict"), "PASS");
		ck_assert_str_eq(hd_jv_str(copy, "model"), "Quantum \"Atlas\" III\tx\\y");
		ck_assert_uint_eq(copy->n, v->n);
		hd_jv_free(copy);
		unlink(path);
	}
	hd_jv_free(v);
	free(buf);
}
END_TEST

struct bad {
	const char *text, *want;
};

static const struct bad bads[] = {
	{ "", "m:1: unexpected end of input" },
	{ "{\"a\": 1,\n\"b\" 2}", "m:2: expected ':'" },
	{ "[1, 2", "m:1: expected ',' or ']'" },
	{ "{\"a\": tru}", "m:1: unexpected character 't'" },
	{ "\"abc", "m:1: unterminated string" },
	{ "{\"a\": 1} x", "m:1: text after the JSON value" },
	{ "\"\\q\"", "m:1: bad escape in a string" },
	{ "{1: 2}", "m:1: expected a member name" },
	{ "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "nested too deeply" },
};

START_TEST(test_refuse_malformed)
{
	struct hd_jv *v = NULL;
	char err[256];

	ck_assert_int_eq(hd_jv_parse(bads[_i].text, strlen(bads[_i].text), "m", &v, err, sizeof(err)), -1);
	ck_assert_ptr_null(v);
	ck_assert_msg(strstr(err, bads[_i].want) != NULL, "'%s': got '%s', want '%s'", bads[_i].text, err,
		      bads[_i].want);
}
END_TEST

START_TEST(test_unicode)
{
	struct hd_jv *v;
	char err[256];
	const char *t = "\"\\u00e9\\ud83d\\ude00\"";

	ck_assert_int_eq(hd_jv_parse(t, strlen(t), "m", &v, err, sizeof(err)), 0);
	ck_assert_str_eq(v->str, "\xc3\xa9\xf0\x9f\x98\x80");
	hd_jv_free(v);
	/* Lone or mismatched surrogates become U+FFFD, never invalid UTF-8. */
	t = "\"\\ud83d\\u0041\\ude00\"";
	ck_assert_int_eq(hd_jv_parse(t, strlen(t), "m", &v, err, sizeof(err)), 0);
	ck_assert_str_eq(v->str, "\xef\xbf\xbd\xef\xbf\xbd");
	hd_jv_free(v);
}
END_TEST

/* Found by tests/fuzz/fuzz_json.c: a NUL byte after a number was read as part of it. */
START_TEST(test_nul_after_number)
{
	static const char text[] = { '[', '1', '\0', ']' };
	struct hd_jv *v = NULL;
	char err[256];

	ck_assert_int_eq(hd_jv_parse(text, sizeof(text), "m", &v, err, sizeof(err)), -1);
	ck_assert_ptr_null(v);
	ck_assert_msg(strstr(err, "m:1: expected ',' or ']'") != NULL, "got '%s'", err);
}
END_TEST

/*
 * Found by tests/fuzz/fuzz_json.c: a number near DBL_MAX was written with
 * ten digits, rounded up past DBL_MAX, and the saved document did not
 * read back.
 */
START_TEST(test_near_dbl_max_round_trip)
{
	const char *t = "[1.7976931348623157e308, -1.7976931345e308, 1.5e308]";
	struct hd_jv *v, *again;
	struct hd_json j;
	char err[256], *out = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_int_eq(hd_jv_parse(t, strlen(t), "m", &v, err, sizeof(err)), 0);
	f = open_memstream(&out, &len);
	ck_assert_ptr_nonnull(f);
	hd_json_init(&j, f, 0);
	hd_jv_emit(&j, NULL, v);
	fclose(f);
	ck_assert_msg(hd_jv_parse(out, len, "again", &again, err, sizeof(err)) == 0, "%s: %s", out, err);
	ck_assert_uint_eq(again->n, 3);
	for (size_t i = 0; i < 3; i++)
		ck_assert(fabs(again->items[i]->num - v->items[i]->num) <= 1e-9 * fabs(v->items[i]->num));
	/* Ordinary numbers keep the ten-digit form. */
	ck_assert_ptr_nonnull(strstr(out, "1.5e+308"));
	hd_jv_free(again);
	hd_jv_free(v);
	free(out);
}
END_TEST

int main(void)
{
	return tu_main("json", "json", NULL, NULL,
		       TU_TESTS(TU_TEST(test_round_trip), TU_LOOP(test_refuse_malformed, bads), TU_TEST(test_unicode),
				TU_TEST(test_nul_after_number), TU_TEST(test_near_dbl_max_round_trip)));
}
