/*
 * The device and what it says of itself as JSON, for the outputs that carry
 * it (info --json, a profile's summary.json).  JSON is written at the edge,
 * by the commands, so the device layer below only fills struct hd_identity.
 */
#include <string.h>

#include "hddscope/cmd.h"
#include "hddscope/dev.h"
#include "hddscope/identity.h"
#include "hddscope/json.h"

void hd_identity_json(struct hd_json *j, const char *key, const struct hd_dev *d, const struct hd_identity *id,
		      int attrs)
{
	hd_json_obj(j, key);
	hd_json_str(j, "device", d->path);
	hd_json_str(j, "kind", hd_dev_kind_name(d->kind));
	hd_json_uint(j, "size_bytes", d->size);
	hd_json_uint(j, "logical_sector_bytes", d->logical_sector_bytes);
	hd_json_uint(j, "physical_sector_bytes", d->physical_sector_bytes);
	hd_json_uint(j, "access_unit_bytes", d->io_align);
	if (id->rotational < 0)
		hd_json_null(j, "rotational");
	else
		hd_json_bool(j, "rotational", id->rotational);
	hd_json_bool(j, "direct_io", d->direct);
	hd_json_obj(j, "identity");
	hd_json_str(j, "source", id->source);
	hd_json_bool(j, "simulated", id->simulated);
	hd_json_str(j, "model", id->model);
	hd_json_str(j, "serial", id->serial[0] ? id->serial : NULL);
	hd_json_str(j, "firmware", id->firmware[0] ? id->firmware : NULL);
	hd_json_str(j, "vendor", id->vendor[0] ? id->vendor : NULL);
	hd_json_uint(j, "capacity_bytes", id->capacity_bytes);
	if (id->rpm_nominal)
		hd_json_int(j, "rpm_nominal", id->rpm_nominal);
	else
		hd_json_null(j, "rpm_nominal");
	hd_json_int(j, "ncq_depth", id->ncq_depth);
	hd_json_str(j, "ata_zoned", strcmp(hd_ata_zoned_word(id), "n/a") ? hd_ata_zoned_word(id) : NULL);
	hd_json_end(j);
	hd_json_obj(j, "cache");
	hd_json_str(j, "write_cache", hd_onoff(id->write_cache));
	hd_json_str(j, "write_cache_supported", hd_onoff(id->write_cache_supported));
	hd_json_str(j, "read_lookahead", hd_onoff(id->read_lookahead));
	hd_json_str(j, "read_lookahead_supported", hd_onoff(id->read_lookahead_supported));
	hd_json_str(j, "cache_type", id->cache_type[0] ? id->cache_type : NULL);
	hd_json_end(j);
	/* null where there is no kernel queue or the kernel does not say: never an invented value. */
	hd_json_obj(j, "queue");
	hd_json_bool(j, "kernel_queue", id->kernel_queue);
	hd_json_str(j, "scheduler", id->scheduler[0] ? id->scheduler : NULL);
	if (id->nr_requests < 0)
		hd_json_null(j, "nr_requests");
	else
		hd_json_int(j, "nr_requests", id->nr_requests);
	if (id->queue_depth < 0)
		hd_json_null(j, "queue_depth");
	else
		hd_json_int(j, "queue_depth", id->queue_depth);
	hd_json_str(j, "zoned", id->kernel_queue ? hd_queue_zoned_word(id) : NULL);
	hd_json_end(j);
	hd_json_obj(j, "smart");
	hd_json_bool(j, "available", id->smart_available);
	if (!id->smart_available) {
		hd_json_str(j, "reason", id->smart_reason);
	} else {
		hd_json_str(j, "overall", id->smart_overall);
		if (id->have_bad)
			hd_json_uint(j, "bad_sectors", id->bad_sectors);
		if (id->have_temp)
			hd_json_num(j, "temperature_c", id->temperature_c);
		if (id->have_power_on)
			hd_json_uint(j, "power_on_hours", id->power_on_hours);
		if (id->have_power_cycles)
			hd_json_uint(j, "power_cycles", id->power_cycles);
		if (attrs) {
			hd_json_arr(j, "attributes");
			for (size_t i = 0; i < id->nattrs; i++) {
				const struct hd_smart_attr *a = &id->attrs[i];
				hd_json_obj(j, NULL);
				hd_json_int(j, "id", a->id);
				hd_json_str(j, "name", a->name);
				hd_json_int(j, "value", a->value);
				hd_json_int(j, "worst", a->worst);
				hd_json_int(j, "threshold", a->threshold);
				hd_json_uint(j, "raw", a->raw);
				hd_json_uint(j, "pretty", a->pretty);
				hd_json_str(j, "pretty_unit", a->unit);
				hd_json_bool(j, "prefailure", a->prefailure);
				if (a->good < 0)
					hd_json_null(j, "good");
				else
					hd_json_bool(j, "good", a->good);
				hd_json_end(j);
			}
			hd_json_end(j);
		}
	}
	hd_json_end(j);
	hd_json_end(j);
}
