/*
 * Which drive, in what health, with which caches: identity from the ATA
 * IDENTIFY data, SMART health through libatasmart (or from a saved blob),
 * and the kernel's view from sysfs.  Nothing here is an error for a device
 * that has no such data: it says why it is not available.
 */
#ifndef HDDSCOPE_IDENTITY_H
#define HDDSCOPE_IDENTITY_H

#include <stddef.h>
#include <stdint.h>

#include "hddscope/dev.h"

struct hd_smart_attr {
	int id;
	char name[48];
	int value, worst, threshold;	/* -1 when not valid */
	uint64_t raw;			/* the six raw bytes, little endian */
	uint64_t pretty;		/* libatasmart's interpreted value */
	char unit[16];			/* of pretty: "mseconds", "sectors", "mkelvin", ... */
	int prefailure;
	int good;			/* 1 good now, 0 failing now, -1 unknown */
	int good_past;			/* 1 never failed, 0 failed in the past, -1 unknown */
};

struct hd_identity {
	int simulated;
	char source[64];		/* "ATA IDENTIFY", "saved SMART data", "simulated drive model", "sysfs", "none" */
	char model[64], serial[32], firmware[16], vendor[64];
	uint64_t capacity_bytes;	/* 0 when unknown */
	int rpm_nominal;		/* 0 unknown, 1 non-rotating (SSD), else rpm */
	int write_cache_supported, write_cache;		/* -1 unknown, 0, 1 */
	int read_lookahead_supported, read_lookahead;	/* -1 unknown, 0, 1 */
	uint32_t logical_sector_bytes, physical_sector_bytes;	/* from IDENTIFY, 0 when unknown */
	int ncq_depth;			/* 0: no NCQ or unknown */
	int ata_zoned;			/* IDENTIFY word 69 bits 1:0 (HD_ATA_ZONED_*), -1 unknown */

	/* sysfs (block devices) */
	int kernel_queue;		/* 1: a block device, whose kernel queue the fields below describe */
	int rotational;			/* -1 unknown */
	char cache_type[32];		/* SCSI disk cache_type, "" when absent */
	char scheduler[64];		/* the active one, "" when absent */
	int nr_requests;		/* -1 when absent */
	int queue_depth;		/* device/queue_depth (commands the host keeps at the drive), -1 when absent */
	char zoned[24];			/* queue/zoned: "none", "host-aware", "host-managed"; "" when absent */

	/* SMART */
	int smart_available;
	char smart_reason[160];		/* why not, when not available */
	char smart_overall[32];		/* libatasmart's words ("GOOD", "BAD_SECTOR", ...) or "unknown" */
	int smart_status_reported;	/* the drive's own self-assessment was in the data */
	int have_bad, have_temp, have_power_on, have_power_cycles;
	uint64_t bad_sectors, power_on_hours, power_cycles;
	double temperature_c;
	struct hd_smart_attr *attrs;
	size_t nattrs;
};

void hd_identity_init(struct hd_identity *id);
void hd_identity_free(struct hd_identity *id);

/*
 * Parse a 512-byte ATA IDENTIFY DEVICE block (words little endian, as the
 * drive sends them): model, serial, firmware, capacity, words 82/85 (write
 * cache, look-ahead), 106/117/118 (sector sizes), 217 (rotation), 75/76
 * (NCQ), 69 (zoned capabilities).  Returns 0, or -EINVAL when the block is not plausible.
 */
int hd_identify_parse(const uint8_t *block, struct hd_identity *id);

/*
 * SMART and identity from saved data (libatasmart's skdump --save format,
 * read with sk_disk_set_blob).  Returns 0 or -errno with a message in err.
 */
int hd_identity_from_blob_file(const char *path, struct hd_identity *id, char *err, size_t errlen);
int hd_identity_from_blob(const void *blob, size_t len, struct hd_identity *id, char *err, size_t errlen);

/*
 * Everything known of an open target: sysfs and libatasmart for a block
 * device, the model for a simulated drive, nothing for a file (with the
 * reason); with blob_path, SMART and identity come from that saved data.
 * Never fails for want of data; returns -errno only for an unreadable blob.
 */
int hd_identity_of(struct hd_dev *d, const char *blob_path, struct hd_identity *id, char *err, size_t errlen);

/*
 * What sysfs says of the block device at path and, with ask_drive, what
 * the drive itself says (ATA IDENTIFY and SMART through libatasmart);
 * nothing when path is not a block device.  The block backend's identify.
 */
void hd_identity_of_disk(const char *path, struct hd_identity *id, int ask_drive);

/* Save the device's SMART data as a blob (hddscope smart-save). */
int hd_smart_save(const char *device, const char *path, char *err, size_t errlen);

/* IDENTIFY DEVICE word 69 bits 1:0, the zoned capabilities (ACS-4 7.13.6.42). */
#define HD_ATA_ZONED_NOT_REPORTED 0
#define HD_ATA_ZONED_HOST_AWARE 1
#define HD_ATA_ZONED_DEVICE_MANAGED 2

/* "not reported", "host-aware", "device-managed", "reserved" or "unknown" (-1). */
const char *hd_ata_zoned_name(int v);

/*
 * The kernel queue's facts as a data file's header and info print them: a
 * number or word, "unknown" where a block device does not show it, "n/a"
 * where there is no kernel queue (a regular file, a simulated drive).  buf
 * holds a number; the result is buf or a static string.
 */
const char *hd_queue_scheduler_word(const struct hd_identity *id);
const char *hd_queue_zoned_word(const struct hd_identity *id);
const char *hd_queue_int_word(const struct hd_identity *id, int v, char *buf, size_t len);
/* The ATA zoned capabilities where the identity can have them: "n/a" on a regular file. */
const char *hd_ata_zoned_word(const struct hd_identity *id);

/* "on", "off" or "unknown" for a -1/0/1 flag. */
const char *hd_onoff(int v);

#endif
