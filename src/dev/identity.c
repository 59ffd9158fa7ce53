/*
 * Drive identity and health.  Three sources, each where it exists: the
 * ATA IDENTIFY block and SMART data through libatasmart (or a blob saved
 * by its skdump --save), sysfs for whatever block device the kernel shows,
 * and the backend itself for a simulated drive.
 */
#include <stddef.h>
#include <stdint.h>

#include <atasmart.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "hddscope/fsutil.h"
#include "hddscope/identity.h"
#include "hddscope/sysfs.h"

void hd_identity_init(struct hd_identity *id)
{
	memset(id, 0, sizeof(*id));
	snprintf(id->source, sizeof(id->source), "none");
	id->write_cache_supported = id->write_cache = -1;
	id->read_lookahead_supported = id->read_lookahead = -1;
	id->rotational = -1;
	id->nr_requests = -1;
	id->queue_depth = -1;
	id->ata_zoned = -1;
	snprintf(id->smart_overall, sizeof(id->smart_overall), "unknown");
}

void hd_identity_free(struct hd_identity *id)
{
	free(id->attrs);
	id->attrs = NULL;
	id->nattrs = 0;
}

/* Copy a string, cut to fit: identity strings are informational. */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

const char *hd_onoff(int v)
{
	return v < 0 ? "unknown" : v ? "on" : "off";
}

const char *hd_ata_zoned_name(int v)
{
	switch (v) {
	case HD_ATA_ZONED_NOT_REPORTED: return "not reported";
	case HD_ATA_ZONED_HOST_AWARE: return "host-aware";
	case HD_ATA_ZONED_DEVICE_MANAGED: return "device-managed";
	case 3: return "reserved";
	}
	return "unknown";
}

const char *hd_queue_scheduler_word(const struct hd_identity *id)
{
	return !id->kernel_queue ? "n/a" : id->scheduler[0] ? id->scheduler : "unknown";
}

/* A device whose zoned model cannot be read is not said to be unzoned. */
const char *hd_queue_zoned_word(const struct hd_identity *id)
{
	return !id->kernel_queue ? "n/a" : id->zoned[0] ? id->zoned : "unknown";
}

const char *hd_queue_int_word(const struct hd_identity *id, int v, char *buf, size_t len)
{
	if (!id->kernel_queue)
		return "n/a";
	if (v < 0)
		return "unknown";
	snprintf(buf, len, "%d", v);
	return buf;
}

const char *hd_ata_zoned_word(const struct hd_identity *id)
{
	return id->ata_zoned < 0 && !id->kernel_queue && !id->simulated ? "n/a" : hd_ata_zoned_name(id->ata_zoned);
}

static uint16_t word(const uint8_t *b, int w)
{
	return (uint16_t)(b[2 * w] | b[2 * w + 1] << 8);
}

/* An ATA string: words of two characters, high byte first, space padded. */
static void ata_string(const uint8_t *b, int first, int nwords, char *out, size_t len)
{
	size_t n = 0;

	for (int w = first; w < first + nwords && n + 2 < len; w++) {
		out[n++] = (char)b[2 * w + 1];
		out[n++] = (char)b[2 * w];
	}
	out[n] = '\0';
	while (n && (out[n - 1] == ' ' || out[n - 1] == '\0'))
		out[--n] = '\0';
	{
		size_t k = 0;
		while (out[k] == ' ')
			k++;
		memmove(out, out + k, n - k + 1);
	}
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			*p = '?';
}

/* A word whose bits 15:14 are 01 carries valid data (ACS: words 82-87, 106). */
static int valid_word(uint16_t w)
{
	return (w & 0xc000) == 0x4000;
}

int hd_identify_parse(const uint8_t *b, struct hd_identity *id)
{
	uint16_t w82 = word(b, 82), w83 = word(b, 83), w85 = word(b, 85), w106 = word(b, 106);
	uint16_t w217 = word(b, 217), w75 = word(b, 75), w76 = word(b, 76), w69 = word(b, 69);
	uint64_t sectors;

	/* Word 0 bit 15 set means an ATAPI device, not a disk. */
	if (word(b, 0) & 0x8000)
		return -EINVAL;
	ata_string(b, 27, 20, id->model, sizeof(id->model));
	ata_string(b, 10, 10, id->serial, sizeof(id->serial));
	ata_string(b, 23, 4, id->firmware, sizeof(id->firmware));
	if (!id->model[0])
		return -EINVAL;
	/* Logical sector: 512 bytes unless word 106 says longer (words 117-118, in words). */
	id->logical_sector_bytes = 512;
	id->physical_sector_bytes = 512;
	if (valid_word(w106)) {
		if (w106 & (1u << 12)) {
			uint32_t words = word(b, 117) | (uint32_t)word(b, 118) << 16;
			if (words >= 256)
				id->logical_sector_bytes = 2 * words;
		}
		if (w106 & (1u << 13))
			id->physical_sector_bytes = id->logical_sector_bytes << (w106 & 0xf);
		else
			id->physical_sector_bytes = id->logical_sector_bytes;
	}
	/* LBA48 count when supported (word 83 bit 10), else the 28-bit one. */
	if (valid_word(w83) && (w83 & (1u << 10)))
		sectors = word(b, 100) | (uint64_t)word(b, 101) << 16 | (uint64_t)word(b, 102) << 32 |
			  (uint64_t)word(b, 103) << 48;
	else
		sectors = word(b, 60) | (uint64_t)word(b, 61) << 16;
	id->capacity_bytes = sectors * id->logical_sector_bytes;
	/* Word 82 bit 5: write cache supported, bit 6: look-ahead supported; word 85 the same, enabled. */
	if (w82 != 0 && w82 != 0xffff) {
		id->write_cache_supported = !!(w82 & (1u << 5));
		id->read_lookahead_supported = !!(w82 & (1u << 6));
		id->write_cache = id->write_cache_supported ? !!(w85 & (1u << 5)) : 0;
		id->read_lookahead = id->read_lookahead_supported ? !!(w85 & (1u << 6)) : 0;
	}
	/* Word 217: 0 not reported, 1 non-rotating, 0401h-FFFEh the rpm. */
	if (w217 == 1)
		id->rpm_nominal = 1;
	else if (w217 >= 0x401 && w217 != 0xffff)
		id->rpm_nominal = w217;
	/* Word 76 bit 8: NCQ supported; word 75 bits 4:0: queue depth - 1. */
	if (w76 != 0 && w76 != 0xffff && (w76 & (1u << 8)))
		id->ncq_depth = (w75 & 0x1f) + 1;
	/*
	 * Word 69 bits 1:0, zoned capabilities: 0 not reported, 1 host-aware,
	 * 2 device-managed (a drive-managed SMR disk may say so).  A word of
	 * all ones is no answer.
	 */
	id->ata_zoned = w69 == 0xffff ? -1 : (int)(w69 & 0x3);
	return 0;
}

/* The IDENTIFY block inside a blob: sections of a 4-byte tag, a 32-bit big-endian size, the data. */
static const uint8_t *blob_identify(const uint8_t *blob, size_t len)
{
	size_t off = 0;

	while (off + 8 <= len) {
		uint32_t size = (uint32_t)blob[off + 4] << 24 | (uint32_t)blob[off + 5] << 16 |
				(uint32_t)blob[off + 6] << 8 | blob[off + 7];
		if (size > len - off - 8)
			return NULL;
		if (memcmp(blob + off, "IDFY", 4) == 0 && size >= 512)
			return blob + off + 8;
		off += 8 + size;
	}
	return NULL;
}

struct attr_ctx {
	struct hd_identity *id;
	int oom;
};

static void attr_cb(SkDisk *d, const SkSmartAttributeParsedData *a, void *user)
{
	struct attr_ctx *c = user;
	struct hd_identity *id = c->id;
	struct hd_smart_attr *x, *n = realloc(id->attrs, (id->nattrs + 1) * sizeof(*n));

	(void)d;
	if (!n) {
		c->oom = 1;
		return;
	}
	id->attrs = n;
	x = &n[id->nattrs++];
	memset(x, 0, sizeof(*x));
	x->id = a->id;
	copy_str(x->name, sizeof(x->name), a->name ? a->name : "unknown");
	x->value = a->current_value_valid ? a->current_value : -1;
	x->worst = a->worst_value_valid ? a->worst_value : -1;
	x->threshold = a->threshold_valid ? a->threshold : -1;
	for (int i = 5; i >= 0; i--)
		x->raw = x->raw << 8 | a->raw[i];
	x->pretty = a->pretty_value;
	copy_str(x->unit, sizeof(x->unit), sk_smart_attribute_unit_to_string(a->pretty_unit));
	x->prefailure = a->prefailure;
	x->good = a->good_now_valid ? (int)a->good_now : -1;
	x->good_past = a->good_in_the_past_valid ? (int)a->good_in_the_past : -1;
}

/*
 * libatasmart's overall assessment without the drive's self-assessment
 * (some saved data lacks it): the same checks in the same order, bad
 * sectors counted against log2(sectors) x 1024.
 */
static const char *overall_without_status(const struct hd_identity *id)
{
	uint64_t sectors = id->capacity_bytes / 512, lg = 0;
	int now = 0, past = 0;

	while (sectors >>= 1)
		lg++;
	if (id->have_bad && lg && id->bad_sectors >= lg * 1024)
		return "BAD_SECTOR_MANY";
	for (size_t i = 0; i < id->nattrs; i++) {
		now |= id->attrs[i].prefailure && id->attrs[i].good == 0;
		past |= id->attrs[i].prefailure && id->attrs[i].good_past == 0;
	}
	if (now)
		return "BAD_ATTRIBUTE_NOW";
	if (id->have_bad && id->bad_sectors > 0)
		return "BAD_SECTOR";
	if (past)
		return "BAD_ATTRIBUTE_IN_THE_PAST";
	return "GOOD";
}

/* Read identity and SMART from an SkDisk that has its data (a device or a blob). */
static void from_skdisk(SkDisk *d, struct hd_identity *id)
{
	const SkIdentifyParsedData *ip;
	const void *blob;
	size_t blen;
	SkBool avail = 0;
	SkSmartOverall overall;
	uint64_t v;
	struct attr_ctx ctx = { id, 0 };

	if (sk_disk_get_blob(d, &blob, &blen) == 0) {
		const uint8_t *idfy = blob_identify(blob, blen);
		if (idfy)
			hd_identify_parse(idfy, id);
	}
	if (sk_disk_identify_parse(d, &ip) == 0) {
		copy_str(id->model, sizeof(id->model), ip->model);
		copy_str(id->serial, sizeof(id->serial), ip->serial);
		copy_str(id->firmware, sizeof(id->firmware), ip->firmware);
	}
	if (sk_disk_smart_is_available(d, &avail) < 0 || !avail) {
		id->smart_available = 0;
		snprintf(id->smart_reason, sizeof(id->smart_reason), "the drive does not support SMART or has it off");
		return;
	}
	if (sk_disk_smart_parse_attributes(d, attr_cb, &ctx) < 0 && ctx.oom)
		return;
	id->smart_available = 1;
	if (sk_disk_smart_get_bad(d, &v) == 0) {
		id->have_bad = 1;
		id->bad_sectors = v;
	}
	{
		SkBool good;
		id->smart_status_reported = sk_disk_smart_status(d, &good) == 0;
	}
	if (sk_disk_smart_get_overall(d, &overall) == 0)
		copy_str(id->smart_overall, sizeof(id->smart_overall), sk_smart_overall_to_string(overall));
	else if (!id->smart_status_reported)
		copy_str(id->smart_overall, sizeof(id->smart_overall), overall_without_status(id));
	if (sk_disk_smart_get_temperature(d, &v) == 0) {
		id->have_temp = 1;
		id->temperature_c = (double)v / 1000 - 273.15;
	}
	if (sk_disk_smart_get_power_on(d, &v) == 0) {
		id->have_power_on = 1;
		id->power_on_hours = v / 3600000;
	}
	if (sk_disk_smart_get_power_cycle(d, &v) == 0) {
		id->have_power_cycles = 1;
		id->power_cycles = v;
	}
}

int hd_identity_from_blob(const void *blob, size_t len, struct hd_identity *id, char *err, size_t errlen)
{
	SkDisk *d;

	if (sk_disk_open(NULL, &d) < 0) {
		snprintf(err, errlen, "libatasmart: %s", strerror(errno));
		return -errno;
	}
	if (sk_disk_set_blob(d, blob, len) < 0) {
		int e = errno;
		snprintf(err, errlen, "not SMART data saved by skdump --save: %s", strerror(e));
		sk_disk_free(d);
		return -e;
	}
	from_skdisk(d, id);
	sk_disk_free(d);
	snprintf(id->source, sizeof(id->source), "saved SMART data");
	return 0;
}

int hd_identity_from_blob_file(const char *path, struct hd_identity *id, char *err, size_t errlen)
{
	uint8_t buf[65536];
	size_t n;
	FILE *f;
	int rc = hd_in_open(path, &f);

	/* A FIFO or a device would block or never end: saved data is a regular file. */
	if (rc) {
		hd_in_strerror(err, errlen, path, rc);
		return rc;
	}
	n = fread(buf, 1, sizeof(buf), f);
	if (ferror(f)) {
		snprintf(err, errlen, "read %s: %s", path, strerror(errno));
		fclose(f);
		return -EIO;
	}
	fclose(f);
	if (n == 0 || n == sizeof(buf)) {
		snprintf(err, errlen, "%s: %s", path, n ? "too large for saved SMART data" : "empty file");
		return -EINVAL;
	}
	rc = hd_identity_from_blob(buf, n, id, err, errlen);
	if (rc) {
		char tmp[256];
		copy_str(tmp, sizeof(tmp), err);
		snprintf(err, errlen, "%s: %s", path, tmp);
	}
	return rc;
}

/* What sysfs says of the disk holding dev_t rdev. */
static void from_sysfs(dev_t rdev, struct hd_identity *id)
{
	char buf[256];
	const char *p;

	if (hd_sysfs_disk_attr(rdev, "queue/rotational", buf, sizeof(buf)) == 0)
		id->rotational = atoi(buf) != 0;
	if (hd_sysfs_disk_attr(rdev, "device/vendor", buf, sizeof(buf)) == 0)
		copy_str(id->vendor, sizeof(id->vendor), buf);
	if (!id->model[0] && hd_sysfs_disk_attr(rdev, "device/model", buf, sizeof(buf)) == 0)
		copy_str(id->model, sizeof(id->model), buf);
	id->kernel_queue = 1;
	if (hd_sysfs_disk_attr(rdev, "queue/nr_requests", buf, sizeof(buf)) == 0)
		id->nr_requests = atoi(buf);
	/* SCSI and SATA disks only: how many commands the host keeps at the drive (1: no NCQ in use). */
	if (hd_sysfs_disk_attr(rdev, "device/queue_depth", buf, sizeof(buf)) == 0)
		id->queue_depth = atoi(buf);
	if (hd_sysfs_disk_attr(rdev, "queue/zoned", buf, sizeof(buf)) == 0)
		copy_str(id->zoned, sizeof(id->zoned), buf);
	/* "mq-deadline [none]": the bracketed one is in effect. */
	if (hd_sysfs_disk_attr(rdev, "queue/scheduler", buf, sizeof(buf)) == 0) {
		const char *a = strchr(buf, '['), *b = a ? strchr(a, ']') : NULL;
		if (a && b)
			snprintf(id->scheduler, sizeof(id->scheduler), "%.*s", (int)(b - a - 1), a + 1);
		else
			copy_str(id->scheduler, sizeof(id->scheduler), buf);
	}
	p = hd_sysfs_cache_type_path(rdev, buf, sizeof(buf));
	if (p) {
		char v[64];
		if (hd_sysfs_read(p, v, sizeof(v)) == 0)
			copy_str(id->cache_type, sizeof(id->cache_type), v);
	}
	/* A SCSI disk's cache_type tells the write cache where IDENTIFY is silent. */
	if (id->write_cache < 0 && id->cache_type[0])
		id->write_cache = strstr(id->cache_type, "write back") != NULL;
	if (id->read_lookahead < 0 && id->cache_type[0] && strstr(id->cache_type, "no read"))
		id->read_lookahead = 0;
}

void hd_identity_of_disk(const char *path, struct hd_identity *id, int ask_drive)
{
	struct stat st;
	SkDisk *sk;

	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return;
	from_sysfs(st.st_rdev, id);
	snprintf(id->source, sizeof(id->source), "sysfs");
	if (!ask_drive)
		return;
	if (sk_disk_open(path, &sk) < 0) {
		snprintf(id->smart_reason, sizeof(id->smart_reason), "not an ATA disk: %s", strerror(errno));
	} else {
		SkBool avail = 0;
		if (sk_disk_identify_is_available(sk, &avail) < 0 || !avail) {
			snprintf(id->smart_reason, sizeof(id->smart_reason), "no ATA IDENTIFY data");
		} else {
			sk_disk_smart_read_data(sk);
			from_skdisk(sk, id);
			snprintf(id->source, sizeof(id->source), "ATA IDENTIFY");
		}
		sk_disk_free(sk);
	}
}

int hd_identity_of(struct hd_dev *d, const char *blob_path, struct hd_identity *id, char *err, size_t errlen)
{
	hd_identity_init(id);
	id->rotational = d->rotational;
	/* The backend answers for its drive; saved SMART data stands in for asking the drive itself. */
	hd_dev_identify(d, id, !blob_path);
	if (blob_path) {
		int rc = hd_identity_from_blob_file(blob_path, id, err, errlen);
		if (rc)
			return rc;
	}
	if (!id->model[0])
		copy_str(id->model, sizeof(id->model), d->model[0] ? d->model : "unknown");
	if (!id->capacity_bytes)
		id->capacity_bytes = d->size;
	return 0;
}

int hd_smart_save(const char *device, const char *path, char *err, size_t errlen)
{
	SkDisk *d;
	const void *blob;
	const char *call;
	size_t len;
	int rc;

	/* FILE is checked before the drive is asked anything: a device node is never written. */
	rc = hd_out_check_file(path);
	if (rc) {
		snprintf(err, errlen, "%s: %s", path, hd_fs_strerror(rc));
		return rc;
	}
	if (strncmp(device, "sim:", 4) == 0) {
		snprintf(err, errlen, "%s: a simulated drive has no SMART data to save", device);
		return -ENOTSUP;
	}
	if (sk_disk_open(device, &d) < 0) {
		rc = -errno;
		snprintf(err, errlen, "open %s: %s (SMART needs an ATA disk)", device, strerror(errno));
		return rc;
	}
	if (sk_disk_smart_read_data(d) < 0 && errno != ENOTSUP) {
		/* Identify alone is still worth saving. */
	}
	if (sk_disk_get_blob(d, &blob, &len) < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: no SMART data to save: %s", device, strerror(errno));
		sk_disk_free(d);
		return rc;
	}
	rc = hd_out_write_all(path, blob, len, &call);
	if (rc)
		snprintf(err, errlen, "%s %s: %s", call, path, hd_fs_strerror(rc));
	sk_disk_free(d);
	return rc;
}
