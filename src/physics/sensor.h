/* tumble physics: sensor records and their overlap lists (engine-private).
 *
 * Every sensor's overlaps of the last update sit in one world array, sorted by
 * shape slot within the sensor's segment; an update builds the next array from
 * the current one and swaps the two, so the lists are contiguous, linked by
 * index only, and a step never allocates per sensor. */
#ifndef TB_SENSOR_H
#define TB_SENSOR_H

#include "solver.h"

typedef struct tb_world tb_world;

/* A shape overlapping a sensor: its slot and its generation when it was found,
 * with flag bits on top (see sensor.c). */
typedef struct tb_sensor_overlap {
	int32_t shape;
	uint32_t generation;
} tb_sensor_overlap;

TB_ARRAY_DECLARE(tb_sensor_overlap_array, tb_sensor_overlap)

typedef struct tb_sensor {
	int32_t shape;
	int32_t first, count;           /* its overlaps: world->overlaps.data[first, first + count) */
	int32_t next_first, next_count; /* its segment of world->next_overlaps while an update builds it */
	bool in_use;
} tb_sensor;

TB_ARRAY_DECLARE(tb_sensor_array, tb_sensor)

/* Room for one more sensor record, so that tb_sensor_create cannot fail. */
bool tb_reserve_sensor_slot(tb_world *w);
/* A record for a shape that becomes a sensor or gets a field (none if it has
 * one); false when memory runs out (nothing changed). */
bool tb_sensor_create(tb_world *w, int32_t shape);
/* Frees the record. Each overlap it had reported gets its sensor_exit event
 * with the next step, as a destroyed shape's contacts get their end events. */
void tb_sensor_destroy(tb_world *w, int32_t shape);
void tb_update_sensors(tb_world *w);                     /* overlaps + enter/exit events, end of step */
void tb_apply_fields(tb_world *w, tb_step_context *ctx); /* each substep, before velocity integration */

#endif
