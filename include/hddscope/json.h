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


/*
 * A JSON document in memory, for reading summary.json and adding sections
 * to it (fit, verdict) and for comparing two profiles.
 */
enum hd_jv_type { HD_JV_NULL, HD_JV_BOOL, HD_JV_NUM, HD_JV_STR, HD_JV_ARR, HD_JV_OBJ };

struct hd_jv {
	enum hd_jv_type type;
	double num;		/* HD_JV_NUM; HD_JV_BOOL: 0 or 1 */
	char *str;		/* HD_JV_STR */
	struct hd_jv **items;	/* HD_JV_ARR, HD_JV_OBJ: values */
	char **keys;		/* HD_JV_OBJ: member names */
	size_t n;
};

/* Parse a file; 0, or -1 with "FILE:LINE: reason" in err. */
int hd_jv_load(const char *path, struct hd_jv **out, char *err, size_t errlen);
/* Parse text of len bytes; fname names it in messages. */
int hd_jv_parse(const char *text, size_t len, const char *fname, struct hd_jv **out, char *err, size_t errlen);
void hd_jv_free(struct hd_jv *v);
/* Member of an object, or a path of members separated by '.' ("fit.rpm"); NULL when absent. */
const struct hd_jv *hd_jv_get(const struct hd_jv *v, const char *path);
/* A number at path, or def when absent or not a number. */
double hd_jv_num(const struct hd_jv *v, const char *path, double def);
/* A string at path, or NULL. */
const char *hd_jv_str(const struct hd_jv *v, const char *path);
/* Set (replace or append) member key of object obj to val, which obj then owns (freed on failure). */
int hd_jv_set(struct hd_jv *obj, const char *key, struct hd_jv *val);
/* Append val to array arr, which then owns it; 0 or -ENOMEM. */
int hd_jv_append(struct hd_jv *arr, struct hd_jv *val);
/* A new string value (NULL on allocation failure). */
struct hd_jv *hd_jv_new_str(const char *s);
/* Constructors (NULL on allocation failure). */
struct hd_jv *hd_jv_new(enum hd_jv_type type);
/* Write v as JSON through a writer (key NULL at the top level or in arrays). */
void hd_jv_emit(struct hd_json *j, const char *key, const struct hd_jv *v);
/* Write v to path atomically (temporary file, rename); -errno. */
int hd_jv_save(const char *path, const struct hd_jv *v);

#endif
