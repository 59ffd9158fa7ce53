/*
 * Identity: hand-built IDENTIFY blocks with known fields; malformed saved
 * SMART data.
 */
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

#include "hddscope/identity.h"
#include "testutil.h"

static void put_word(uint8_t *b, int w, uint16_t v)
{
	b[2 * w] = (uint8_t)(v & 0xff);
	b[2 * w + 1] = (uint8_t)(v >> 8);
}

/* An ATA string: two characters a word, the first in the high byte, space padded. */
static void put_string(uint8_t *b, int first, int nwords, const char *s)
{
	size_t n = strlen(s);

	for (int i = 0; i < 2 * nwords; i++) {
		char c = (size_t)i < n ? s[i] : ' ';
		b[2 * (first + i / 2) + (i % 2 ? 0 : 1)] = (uint8_t)c;
	}
}

/* A plausible disk: LBA48, 976773168 sectors, write cache and look-ahead supported. */
static void base_block(uint8_t *b)
{
	memset(b, 0, 512);
	put_word(b, 0, 0x0040);
	put_string(b, 10, 10, "WD-WCAPW0493929");
	put_string(b, 23, 4, "12.01C01");
	put_string(b, 27, 20, "WDC WD5000AAKS-00TMA0");
	put_word(b, 60, 0xffff);
	put_word(b, 61, 0x0fff);
	put_word(b, 82, 0x4000 | 1u << 5 | 1u << 6);
	put_word(b, 83, 0x4000 | 1u << 10);
	put_word(b, 85, 0x4000);
	put_word(b, 100, 0x6030);
	put_word(b, 101, 0x3a38);
}

/* The base block with word w set to v, parsed into *id. */
static void parse_with_word(uint8_t *b, int w, uint16_t v, struct hd_identity *id)
{
	base_block(b);
	put_word(b, w, v);
	hd_identity_init(id);
	ck_assert_int_eq(hd_identify_parse(b, id), 0);
}

START_TEST(test_identify_fields)
{
	uint8_t b[512];
	struct hd_identity id;

	base_block(b);
	hd_identity_init(&id);
	ck_assert_int_eq(hd_identify_parse(b, &id), 0);
	ck_assert_str_eq(id.model, "WDC WD5000AAKS-00TMA0");
	ck_assert_str_eq(id.serial, "WD-WCAPW0493929");
	ck_assert_str_eq(id.firmware, "12.01C01");
	ck_assert_uint_eq(id.capacity_bytes, 976773168ULL * 512);
	ck_assert_uint_eq(id.logical_sector_bytes, 512);
	ck_assert_uint_eq(id.physical_sector_bytes, 512);
	/* Supported, not enabled. */
	ck_assert_int_eq(id.write_cache_supported, 1);
	ck_assert_int_eq(id.write_cache, 0);
	ck_assert_int_eq(id.read_lookahead_supported, 1);
	ck_assert_int_eq(id.read_lookahead, 0);
	ck_assert_int_eq(id.rpm_nominal, 0);
	ck_assert_int_eq(id.ncq_depth, 0);

	/* Enabled: word 85 bits 5 and 6, each on its own. */
	put_word(b, 85, 0x4000 | 1u << 5);
	ck_assert_int_eq(hd_identify_parse(b, &id), 0);
	ck_assert_int_eq(id.write_cache, 1);
	ck_assert_int_eq(id.read_lookahead, 0);
	put_word(b, 85, 0x4000 | 1u << 6);
	ck_assert_int_eq(hd_identify_parse(b, &id), 0);
	ck_assert_int_eq(id.write_cache, 0);
	ck_assert_int_eq(id.read_lookahead, 1);
	/* Enabled bits without support mean nothing. */
	put_word(b, 82, 0x4000);
	put_word(b, 85, 0x4000 | 1u << 5 | 1u << 6);
	ck_assert_int_eq(hd_identify_parse(b, &id), 0);
	ck_assert_int_eq(id.write_cache_supported, 0);
	ck_assert_int_eq(id.write_cache, 0);
	ck_assert_int_eq(id.read_lookahead, 0);
}
END_TEST

START_TEST(test_identify_rotation)
{
	static const struct {
		uint16_t w217;
		int want;
	} cases[] = { { 0, 0 }, { 1, 1 }, { 5400, 5400 }, { 7200, 7200 }, { 10000, 10000 }, { 15000, 15000 },
		      { 0x0400, 0 }, { 0xffff, 0 } };
	uint8_t b[512];
	struct hd_identity id;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		parse_with_word(b, 217, cases[i].w217, &id);
		ck_assert_msg(id.rpm_nominal == cases[i].want, "word 217 = %u: rpm %d, want %d", cases[i].w217,
			      id.rpm_nominal, cases[i].want);
	}
}
END_TEST

START_TEST(test_identify_sectors_and_ncq)
{
	uint8_t b[512];
	struct hd_identity id;

	/* 4K physical, 512 logical (512e): word 106 bit 13, 2^3 logical per physical. */
	base_block(b);
	put_word(b, 106, 0x4000 | 1u << 13 | 3);
	hd_identity_init(&id);
	ck_assert_int_eq(hd_identify_parse(b, &id), 0);
	ck_assert_uint_eq(id.logical_sector_bytes, 512);
	ck_assert_uint_eq(id.physical_sector_bytes, 4096);
	ck_assert_uint_eq(id.capacity_bytes, 976773168ULL * 512);
	/* 4K native: bit 12 and words 117-118 = 2048 words. */
	put_word(b, 106, 0x4000 | 1u << 12);
	put_word(b, 117, 2048);
	ck_assert_int_eq(hd_identify_parse(b, &id), 0);
	ck_assert_uint_eq(id.logical_sector_bytes, 4096);
	ck_assert_uint_eq(id.physical_sector_bytes, 4096);
	ck_assert_uint_eq(id.capacity_bytes, 976773168ULL * 4096);
	/* Word 106 without its validity bits is ignored. */
	put_word(b, 106, 1u << 13 | 3);
	ck_assert_int_eq(hd_identify_parse(b, &id), 0);
	ck_assert_uint_eq(id.physical_sector_bytes, 512);
	/* NCQ: word 76 bit 8, depth from word 75. */
	put_word(b, 76, 1u << 8);
	put_word(b, 75, 31);
	ck_assert_int_eq(hd_identify_parse(b, &id), 0);
	ck_assert_int_eq(id.ncq_depth, 32);
	/* Without LBA48, the 28-bit count of words 60-61. */
	put_word(b, 83, 0x4000);
	ck_assert_int_eq(hd_identify_parse(b, &id), 0);
	ck_assert_uint_eq(id.capacity_bytes, 0x0fffffffULL * 512);
	/* An ATAPI device, or no model, is no disk. */
	put_word(b, 0, 0x8580);
	ck_assert_int_eq(hd_identify_parse(b, &id), -EINVAL);
	base_block(b);
	put_string(b, 27, 20, "");
	ck_assert_int_eq(hd_identify_parse(b, &id), -EINVAL);
}
END_TEST

/* Word 69 bits 1:0, the zoned capabilities, as a table: the word, what it says, its word. */
START_TEST(test_identify_zoned)
{
	static const struct {
		uint16_t w69;
		int want;
		const char *name;
	} cases[] = {
		{ 0x0000, HD_ATA_ZONED_NOT_REPORTED, "not reported" },
		{ 0x4020, HD_ATA_ZONED_NOT_REPORTED, "not reported" },	/* other bits of the word (an SSD's) */
		{ 0x0001, HD_ATA_ZONED_HOST_AWARE, "host-aware" },
		{ 0x0002, HD_ATA_ZONED_DEVICE_MANAGED, "device-managed" },
		{ 0x4022, HD_ATA_ZONED_DEVICE_MANAGED, "device-managed" },
		{ 0x0003, 3, "reserved" },
		{ 0xffff, -1, "unknown" },
	};
	uint8_t b[512];
	struct hd_identity id;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		parse_with_word(b, 69, cases[i].w69, &id);
		ck_assert_msg(id.ata_zoned == cases[i].want, "word 69 %#x: %d, want %d", cases[i].w69, id.ata_zoned,
			      cases[i].want);
		ck_assert_str_eq(hd_ata_zoned_name(id.ata_zoned), cases[i].name);
	}
	/* Without IDENTIFY: unknown on a block device, n/a on a file; the queue's facts likewise. */
	hd_identity_init(&id);
	ck_assert_str_eq(hd_ata_zoned_word(&id), "n/a");
	ck_assert_str_eq(hd_queue_zoned_word(&id), "n/a");
	ck_assert_str_eq(hd_queue_scheduler_word(&id), "n/a");
	id.kernel_queue = 1;
	ck_assert_str_eq(hd_ata_zoned_word(&id), "unknown");
	ck_assert_str_eq(hd_queue_zoned_word(&id), "unknown");
	ck_assert_str_eq(hd_queue_scheduler_word(&id), "unknown");
	snprintf(id.zoned, sizeof(id.zoned), "host-managed");
	ck_assert_str_eq(hd_queue_zoned_word(&id), "host-managed");
}
END_TEST

START_TEST(test_bad_blobs)
{
	struct hd_identity id;
	char err[512], path[] = "/tmp/hddscope-blob-XXXXXX";
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "not smart data at all\n", 22), 22);
	close(fd);
	hd_identity_init(&id);
	ck_assert_int_ne(hd_identity_from_blob_file(path, &id, err, sizeof(err)), 0);
	ck_assert_msg(strncmp(err, path, strlen(path)) == 0, "%s", err);
	ck_assert_int_ne(hd_identity_from_blob_file("/nonexistent/blob", &id, err, sizeof(err)), 0);
	ck_assert_str_eq(err, "open /nonexistent/blob: No such file or directory");
	unlink(path);
}
END_TEST

int main(void)
{
	return tu_main("identity", "identify", NULL, NULL,
		       TU_TESTS(TU_TEST(test_identify_fields), TU_TEST(test_identify_rotation),
				TU_TEST(test_identify_sectors_and_ncq), TU_TEST(test_identify_zoned),
				TU_TEST(test_bad_blobs)));
}
