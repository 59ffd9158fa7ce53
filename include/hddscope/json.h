/* A small streaming JSON writer for summary.json and --json outputs. */
#ifndef HDDSCOPE_JSON_H
#define HDDSCOPE_JSON_H

#include <stdint.h>
#include <stdio.h>

#define HD_JSON_MAX_DEPTH 32

struct hd_json {
	FILE *f;
	int depth;
	int count[HD_JSON_MAX_DEPTH];	/* members written at each level */
	char close[HD_JSON_MAX_DEPTH];	/* the bracket that closes each level */
	int pretty;
};

void hd_json_init(struct hd_json *j, FILE *f, int pretty);
/* key is NULL inside arrays and at the top level. */
void hd_json_obj(struct hd_json *j, const char *key);
void hd_json_arr(struct hd_json *j, const char *key);
void hd_json_end(struct hd_json *j);		/* closes the innermost object or array */
void hd_json_str(struct hd_json *j, const char *key, const char *v);	/* NULL writes null */
void hd_json_num(struct hd_json *j, const char *key, double v);	/* not finite writes null */
void hd_json_int(struct hd_json *j, const char *key, int64_t v);
void hd_json_uint(struct hd_json *j, const char *key, uint64_t v);
void hd_json_bool(struct hd_json *j, const char *key, int v);
void hd_json_null(struct hd_json *j, const char *key);

#endif
