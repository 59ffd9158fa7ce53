/*
 * The saved SMART data of 19 real drives, read from ../shared/smart-blobs
 * at test time (exit 77 where it is absent), against the table in that
 * folder's README and the names of its files.
 */
#include <check.h>
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/identity.h"
#include "testutil.h"

/* Letters and digits only. */
static char *squeeze(char *s)
{
	char *o = s;

	for (char *p = s; *p; p++)
		if (isalnum((unsigned char)*p) || *p == '.')
			*o++ = *p;
	*o = '\0';
	return s;
}

/* "| file | overall | bad sectors |" rows of the blobs' README; the rest are GOOD, 0. */
static int expected(const char *readme, const char *file, char *overall, unsigned long long *bad)
{
	FILE *f = fopen(readme, "r");
	char line[512], name[256], ov[64];
	unsigned long long b;

	strcpy(overall, "GOOD");
	*bad = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "| %255s | %63s | %llu |", name, ov, &b) == 3 && strcmp(name, file) == 0) {
			strcpy(overall, ov);
			*bad = b;
		}
	fclose(f);
	return 0;
}

START_TEST(test_real_blobs)
{
	const char *shared = getenv("HDDSCOPE_SHARED") ? getenv("HDDSCOPE_SHARED") : HDDSCOPE_SHARED_DIR;
	char dir[512], readme[600], path[900], err[512];
	struct dirent *e;
	int n = 0;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/smart-blobs", shared);
	snprintf(readme, sizeof(readme), "%s/README.md", dir);
	dp = opendir(dir);
	ck_assert_ptr_nonnull(dp);
	while ((e = readdir(dp))) {
		struct hd_identity id;
		char name[256], overall[64], *sep;
		unsigned long long bad;

		if (!strstr(e->d_name, "--"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		hd_identity_init(&id);
		ck_assert_msg(hd_identity_from_blob_file(path, &id, err, sizeof(err)) == 0, "%s", err);
		ck_assert_int_eq(expected(readme, e->d_name, overall, &bad), 0);
		ck_assert_msg(id.smart_available, "%s: SMART not available", e->d_name);
		ck_assert_msg(strcmp(id.smart_overall, overall) == 0, "%s: overall %s, want %s", e->d_name,
			      id.smart_overall, overall);
		/* A drive without the bad-sector attributes counts none, as libatasmart does. */
		ck_assert_msg((id.have_bad ? id.bad_sectors : 0) == bad, "%s: %llu bad sectors, want %llu", e->d_name,
			      (unsigned long long)id.bad_sectors, bad);
		/*
		 * The file name is MODEL--FIRMWARE[--N] with spaces as underscores,
		 * though some files put the "--" inside the model's own dash, so the
		 * comparison ignores separators; and one (the Toshiba's) carries
		 * the serial number where the firmware belongs.
		 */
		snprintf(name, sizeof(name), "%s", e->d_name);
		sep = strstr(name + strlen(name) - 3, "--");
		if (sep && isdigit((unsigned char)sep[2]) && sep[3] == '\0')
			*sep = '\0';
		squeeze(name);
		{
			char with_fw[256], with_serial[256];

			snprintf(with_fw, sizeof(with_fw), "%s%s", id.model, id.firmware);
			snprintf(with_serial, sizeof(with_serial), "%s%s", id.model, id.serial);
			ck_assert_msg(id.firmware[0] && (strcmp(squeeze(with_fw), name) == 0 ||
							 strcmp(squeeze(with_serial), name) == 0),
				      "%s: model '%s' firmware '%s' serial '%s'", e->d_name, id.model, id.firmware,
				      id.serial);
		}
		if (id.have_temp)
			ck_assert_msg(id.temperature_c > 0 && id.temperature_c < 80, "%s: %.1f C", e->d_name,
				      id.temperature_c);
		if (id.have_power_on)
			ck_assert_msg(id.power_on_hours < 200000, "%s: %llu hours", e->d_name,
				      (unsigned long long)id.power_on_hours);
		ck_assert_uint_gt(id.nattrs, 5);
		ck_assert_str_eq(id.source, "saved SMART data");
		hd_identity_free(&id);
		n++;
	}
	closedir(dp);
	ck_assert_int_eq(n, 19);
}
END_TEST

int main(void)
{
	const char *shared = getenv("HDDSCOPE_SHARED") ? getenv("HDDSCOPE_SHARED") : HDDSCOPE_SHARED_DIR;
	char probe[600];

	snprintf(probe, sizeof(probe), "%s/smart-blobs/README.md", shared);
	if (access(probe, R_OK) != 0) {
		fprintf(stderr, "skipped: no %s\n", probe);
		return 77;
	}
	return tu_main("smart-blobs", "blobs", NULL, NULL, TU_TESTS(TU_TEST(test_real_blobs)));
}
