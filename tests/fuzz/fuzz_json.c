/*
 * Fuzz harness: the JSON document parser (hd_jv_parse), which reads
 * summary.json files that may have been edited by hand or come from another
 * machine.  An accepted document must be valid JSON (so no NUL byte can be
 * in it), and must survive the trip that verdict and fit make: written out
 * with hd_jv_emit and parsed again, it is the same document (numbers to
 * the ten significant digits the writer keeps).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "hddscope/json.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static int same_num(double a, double b)
{
	return a == b || fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* Structural equality; strings compare as C strings (what the model holds). */
static int same(const struct hd_jv *a, const struct hd_jv *b)
{
	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case HD_JV_NULL:
		return 1;
	case HD_JV_BOOL:
		return (a->num != 0) == (b->num != 0);
	case HD_JV_NUM:
		return same_num(a->num, b->num);
	case HD_JV_STR:
		return strcmp(a->str, b->str) == 0;
	case HD_JV_ARR:
	case HD_JV_OBJ:
		if (a->n != b->n)
			return 0;
		for (size_t i = 0; i < a->n; i++) {
			if (a->type == HD_JV_OBJ && strcmp(a->keys[i], b->keys[i]) != 0)
				return 0;
			if (!same(a->items[i], b->items[i]))
				return 0;
		}
		return 1;
	}
	return 0;
}

/* Every member of an object found by its name through hd_jv_get (no '.' in it). */
static void check_lookup(const struct hd_jv *v)
{
	if (v->type != HD_JV_OBJ && v->type != HD_JV_ARR)
		return;
	for (size_t i = 0; i < v->n; i++) {
		if (v->type == HD_JV_OBJ && !strchr(v->keys[i], '.') && v->keys[i][0]) {
			const struct hd_jv *g = hd_jv_get(v, v->keys[i]);

			/* The first member of that name: a duplicate finds an earlier one. */
			FUZZ_CHECK(g != NULL);
		}
		check_lookup(v->items[i]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hd_jv *v = NULL, *again = NULL;
	char err[512], *text = NULL;
	size_t len = 0;
	struct hd_json j;
	FILE *f;

	if (hd_jv_parse((const char *)data, size, "fuzz.json", &v, err, sizeof(err)) != 0) {
		/* A refusal says where. */
		FUZZ_CHECK(strncmp(err, "fuzz.json:", 10) == 0);
		return 0;
	}
	/* RFC 8259 has no place for a NUL byte, not even inside a string. */
	FUZZ_CHECK(memchr(data, '\0', size) == NULL);
	check_lookup(v);

	f = open_memstream(&text, &len);
	FUZZ_CHECK(f != NULL);
	hd_json_init(&j, f, 1);
	hd_jv_emit(&j, NULL, v);
	FUZZ_CHECK(fclose(f) == 0);
	if (hd_jv_parse(text, len, "again.json", &again, err, sizeof(err)) != 0) {
		fprintf(stderr, "re-parse of the written document failed: %s\n%s\n", err, text);
		FUZZ_CHECK(!"the written document parses again");
	}
	FUZZ_CHECK(same(v, again));
	hd_jv_free(again);
	hd_jv_free(v);
	free(text);
	return 0;
}
