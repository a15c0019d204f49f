/* tumble physics: snapshots (engine-private).
 *
 * A snapshot holds an image of the world: a tb_world record whose settings
 * and counters are the world's and whose arrays are copies of the world's
 * persistent arrays, side by side in one block. Since records link to each
 * other by index only, a copy is a loop over the arrays (the SNAPSHOT entries
 * of TB_WORLD_ARRAYS, world.h) and the scalars below; the scratch the step
 * rebuilds from them (body states, constraints, colours, islands) is not
 * copied, only reserved again and emptied by a restore. snapshot.c takes and restores
 * images, snapshot_format.c saves them to bytes and loads (and checks) them. */
#ifndef TB_SNAPSHOT_H
#define TB_SNAPSHOT_H

#include "world.h"

/* The persistent arrays of a world (TB_WORLD_ARRAYS' SNAPSHOT entries, in
 * their order), copied count elements each. The trees' node pools and the
 * pair set are copied whole, apart. X(NAME, member, type, owner). */
#define TB_SNAPSHOT_ARRAYS(X) TB_WORLD_ARRAYS(X, TB_WORLD_ARRAY_SKIP, TB_WORLD_ARRAY_SKIP)

/* The world's scalars a snapshot carries, each listed once: take and restore
 * copy them all; the byte format (snapshot_format.c) writes the SAVED ones in
 * this order, after the settings, and a load counts the DERIVED ones again
 * from the records. X(member, kind, saving), kind a format field kind
 * without its F_ (I32, U32, F32). The settings (def) are carried whole, apart:
 * a restore keeps the world's own allocator and limits. */
#define TB_SNAPSHOT_SCALARS(X)                                                                              \
	X(body_pool.next_index, I32, SAVED)                                                                     \
	X(shape_pool.next_index, I32, SAVED)                                                                    \
	X(contact_pool.next_index, I32, SAVED)                                                                  \
	X(joint_pool.next_index, I32, SAVED)                                                                    \
	X(sensor_pool.next_index, I32, SAVED)                                                                   \
	X(mover_pool.next_index, I32, SAVED)                                                                    \
	X(next_chain_id, I32, SAVED)                                                                            \
	X(island_count, I32, SAVED)                                                                             \
	X(step_count, I32, SAVED)                                                                               \
	X(step_issues, U32, SAVED)                                                                              \
	X(inv_dt0, F32, SAVED)                                                                                  \
	X(breakable_joint_count, I32, DERIVED)                                                                  \
	X(touching_contact_count, I32, DERIVED)

enum {
#define TB_SNAPSHOT_PART_ENUM(name, member, type, owner) TB_PART_##name,
	TB_SNAPSHOT_ARRAYS(TB_SNAPSHOT_PART_ENUM)
#undef TB_SNAPSHOT_PART_ENUM
	TB_PART_COUNT
};

/* Where one array sits in tb_world: every TB_ARRAY_DECLARE type is a data
 * pointer, a count and a capacity, reached here by their offsets. */
typedef struct tb_snapshot_part {
	const char *name;
	size_t data, count, capacity, element;
} tb_snapshot_part;

extern const tb_snapshot_part tb_snapshot_parts[TB_PART_COUNT];

static inline void *tb_part_data(const tb_world *w, int part)
{
	return *(void *const *)((const char *)w + tb_snapshot_parts[part].data);
}
static inline int32_t tb_part_count(const tb_world *w, int part)
{
	return *(const int32_t *)((const char *)w + tb_snapshot_parts[part].count);
}

struct tb_snapshot {
	tb_allocator allocator; /* the snapshot's own blocks: this record and block */
	unsigned char *block;   /* every array of the image */
	size_t block_size;      /* bytes the image's arrays take */
	size_t block_allocated; /* bytes allocated: block_size, or more for a world's spare */
	uint64_t lineage;       /* of the world it was taken from; 0: loaded from bytes */
	int32_t field_refresh;  /* the world's field_stamp[0]: the step whose overlaps fields last refreshed */
	tb_world image;         /* settings, pools, counters and arrays (into block); no scratch */
};

/* What a world's step writes of the spare blocks kept for its next
 * snapshots (snapshot.c), at most: an eighth of a spare, and no less than the
 * first bound nor more than the second; one byte in every page of it. */
#define TB_SPARE_MIN_BYTES_PER_STEP (512u * 1024u)
#define TB_SPARE_MAX_BYTES_PER_STEP (2048u * 1024u)
#define TB_SPARE_PAGE_BYTES 4096u
size_t tb_spare_bytes_per_step(size_t spare_size);

/* A snapshot record with a block of `block_size` bytes from an allocator like
 * `allocator` (its function and limit), the image zeroed; NULL when memory runs out. */
tb_snapshot *tb_snapshot_alloc(const tb_allocator *allocator, size_t block_size);
/* Lays the image's arrays out in the block for these counts (part counts,
 * the two trees' pool sizes and the pair set's capacity): sets each data
 * pointer, count and capacity. The block must be tb_snapshot_block_size of them. */
void tb_snapshot_layout(tb_snapshot *snap, const int32_t counts[TB_PART_COUNT], const int32_t tree_nodes[2],
                        int32_t pair_capacity);
size_t tb_snapshot_block_size(const int32_t counts[TB_PART_COUNT], const int32_t tree_nodes[2], int32_t pair_capacity);

/* snapshot_format.c, for the tests: the record tables and the checksum. */
int tb_snapshot_record_type_count(void);
const char *tb_snapshot_record_type_name(int type);
/* Bytes of the record no field of its table covers: its padding, unless a
 * field was added to the record and not to the table. */
size_t tb_snapshot_record_uncovered(int type);
/* snapshot_check.c: the image's values as the API's setters would allow
 * them (ranges, unit rotations and normals, geometry, generations); the
 * links are tb_world_validate_links'. */
bool tb_snapshot_check_values(const tb_world *image);

#define TB_SNAPSHOT_HEADER_SIZE 40u
/* The checksum the header holds of the payload (the bytes after the header). */
uint64_t tb_snapshot_checksum(const void *payload, size_t size);

#endif
