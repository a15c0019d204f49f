/* Hostile media files for tests/security/media.sh, made at run time.
 *
 *   media_gen ogg OUT SECONDS CLAIMED [RATE]
 *       an Ogg Vorbis file holding SECONDS of silence whose last page says it
 *       is CLAIMED seconds long (one second of silence is encoded with
 *       libvorbisenc, and its steady packet repeated)
 *   media_gen oggfalse OUT MB
 *       an Ogg Vorbis file's header pages, then MB megabytes of false page
 *       headers, each saying its page is 64 KB long (a reader that checks each
 *       one's checksum in full does 64 KB of work every 282 bytes)
 *   media_gen wav OUT RATE BYTES
 *       a PCM WAV file: 8-bit mono at RATE Hz, BYTES of silence
 *   media_gen wav2 OUT RATE1 RATE2 BYTES
 *       the same with two format chunks: RATE1 Hz 8-bit mono, then RATE2 Hz
 *       32-bit stereo (SDL reads the first)
 *   media_gen png OUT W H
 *       a PNG file whose header says W x H and whose pixels are missing
 *   media_gen jpegsvg OUT SIDE
 *       a file that starts as a 257x257 JPEG and is not one, holding an SVG
 *       picture SIDE pixels a side */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vorbis/vorbisenc.h>

static int fail(const char *what)
{
	fprintf(stderr, "media_gen: %s\n", what);
	return 1;
}

static void write_pages(ogg_stream_state *os, FILE *f, int flush)
{
	ogg_page og;
	while (flush ? ogg_stream_flush(os, &og) : ogg_stream_pageout(os, &og)) {
		fwrite(og.header, 1, (size_t)og.header_len, f);
		fwrite(og.body, 1, (size_t)og.body_len, f);
	}
}

static int make_ogg(const char *out, double seconds, double claimed, long rate, double false_mb)
{
	vorbis_info vi;
	vorbis_comment vc;
	vorbis_dsp_state vd;
	vorbis_block vb;
	vorbis_info_init(&vi);
	if (vorbis_encode_init_vbr(&vi, 2, rate, 0.1f) != 0) return fail("vorbis_encode_init_vbr failed");
	vorbis_comment_init(&vc);
	vorbis_analysis_init(&vd, &vi);
	vorbis_block_init(&vd, &vb);
	ogg_packet h[3];
	vorbis_analysis_headerout(&vd, &vc, &h[0], &h[1], &h[2]);
	ogg_stream_state os;
	ogg_stream_init(&os, 1234);
	FILE *f = fopen(out, "wb");
	if (f == NULL) return fail("cannot write the file");
	for (int i = 0; i < 3; ++i) ogg_stream_packetin(&os, &h[i]);
	write_pages(&os, f, 1);
	if (false_mb > 0) {
		unsigned char page[27 + 255];
		memset(page, 0xFF, sizeof(page));
		memcpy(page, "OggS", 4);
		page[4] = 0;
		page[26] = 255;
		for (double left = false_mb * 1048576.0; left > 0; left -= sizeof(page)) fwrite(page, 1, sizeof(page), f);
		fclose(f);
		return 0;
	}
	/* one second of silence: keep a copy of a packet from its middle */
	unsigned char steady[4096];
	long steady_len = 0, n = 0, blocksize = 0;
	float **buf = vorbis_analysis_buffer(&vd, (int)rate);
	for (long i = 0; i < rate; ++i) buf[0][i] = buf[1][i] = 0.0f;
	vorbis_analysis_wrote(&vd, (int)rate);
	vorbis_analysis_wrote(&vd, 0);
	ogg_packet op;
	while (vorbis_analysis_blockout(&vd, &vb) == 1) {
		vorbis_analysis(&vb, NULL);
		vorbis_bitrate_addblock(&vb);
		while (vorbis_bitrate_flushpacket(&vd, &op)) {
			n += 1;
			if (n == 10 && op.bytes <= (long)sizeof(steady)) {
				memcpy(steady, op.packet, (size_t)op.bytes);
				steady_len = op.bytes;
				blocksize = vorbis_packet_blocksize(&vi, &op);
			}
		}
	}
	if (steady_len == 0 || blocksize <= 0) return fail("no steady packet");
	/* each long packet after the first adds half a block of samples */
	long packets = (long)(seconds * rate / (blocksize / 2)) + 1;
	int64_t granule = 0;
	for (long i = 0; i < packets; ++i) {
		op.packet = steady;
		op.bytes = steady_len;
		op.b_o_s = 0;
		op.e_o_s = i == packets - 1;
		granule += i == 0 ? 0 : blocksize / 2;
		op.granulepos = op.e_o_s ? (int64_t)(claimed * rate) : granule;
		op.packetno = 3 + i;
		ogg_stream_packetin(&os, &op);
		write_pages(&os, f, 0);
	}
	write_pages(&os, f, 1);
	fclose(f);
	ogg_stream_clear(&os);
	vorbis_block_clear(&vb);
	vorbis_dsp_clear(&vd);
	vorbis_comment_clear(&vc);
	vorbis_info_clear(&vi);
	return 0;
}

static void le32(FILE *f, uint32_t v)
{
	unsigned char b[4] = {v & 255, v >> 8 & 255, v >> 16 & 255, v >> 24 & 255};
	fwrite(b, 1, 4, f);
}

static void le16(FILE *f, unsigned v)
{
	unsigned char b[2] = {v & 255, v >> 8 & 255};
	fwrite(b, 1, 2, f);
}

static void fmt_chunk(FILE *f, unsigned channels, uint32_t rate, unsigned bits)
{
	fwrite("fmt ", 1, 4, f);
	le32(f, 16);
	le16(f, 1); /* PCM */
	le16(f, channels);
	le32(f, rate);
	le32(f, rate * channels * bits / 8); /* bytes per second */
	le16(f, channels * bits / 8);        /* block align */
	le16(f, bits);
}

static int make_wav(const char *out, uint32_t rate, uint32_t rate2, uint32_t bytes)
{
	FILE *f = fopen(out, "wb");
	if (f == NULL) return fail("cannot write the file");
	fwrite("RIFF", 1, 4, f);
	le32(f, 36 + (rate2 > 0 ? 24 : 0) + bytes);
	fwrite("WAVE", 1, 4, f);
	fmt_chunk(f, 1, rate, 8);
	if (rate2 > 0) fmt_chunk(f, 2, rate2, 32);
	fwrite("data", 1, 4, f);
	le32(f, bytes);
	static unsigned char silence[65536];
	memset(silence, 128, sizeof(silence));
	for (uint32_t left = bytes; left > 0;) {
		uint32_t n = left < sizeof(silence) ? left : (uint32_t)sizeof(silence);
		fwrite(silence, 1, n, f);
		left -= n;
	}
	fclose(f);
	return 0;
}

static void be32(FILE *f, uint32_t v)
{
	unsigned char b[4] = {v >> 24 & 255, v >> 16 & 255, v >> 8 & 255, v & 255};
	fwrite(b, 1, 4, f);
}

static int make_png(const char *out, uint32_t w, uint32_t h)
{
	FILE *f = fopen(out, "wb");
	if (f == NULL) return fail("cannot write the file");
	static const unsigned char magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
	fwrite(magic, 1, 8, f);
	be32(f, 13);
	unsigned char ihdr[17] = {'I', 'H', 'D', 'R'};
	for (int i = 0; i < 4; ++i) {
		ihdr[4 + i] = (unsigned char)(w >> (24 - 8 * i));
		ihdr[8 + i] = (unsigned char)(h >> (24 - 8 * i));
	}
	ihdr[12] = 8; /* bit depth */
	ihdr[13] = 6; /* RGBA */
	fwrite(ihdr, 1, sizeof(ihdr), f);
	be32(f, 0); /* a wrong CRC: nothing past the header is meant to be read */
	fclose(f);
	return 0;
}

static int make_jpegsvg(const char *out, unsigned side)
{
	FILE *f = fopen(out, "wb");
	if (f == NULL) return fail("cannot write the file");
	/* SOI, then a start of frame of 273 bytes (no zero byte anywhere: SDL_image
	 * looks for "<svg" in the first 4 KB as a C string) saying 257x257 */
	unsigned char head[] = {0xFF, 0xD8, 0xFF, 0xC0, 0x01, 0x11, 0x08, 0x01, 0x01, 0x01, 0x01, 0x03};
	fwrite(head, 1, sizeof(head), f);
	char svg[256];
	int n = snprintf(svg, sizeof(svg),
	                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\">"
	                 "<rect width=\"%u\" height=\"%u\" fill=\"red\"/></svg>",
	                 side, side, side, side);
	fwrite(svg, 1, (size_t)n, f);
	for (size_t i = sizeof(head) + (size_t)n; i < 4 + 0x111 + 16; ++i) fputc(' ', f);
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 5 && strcmp(argv[1], "ogg") == 0) {
		return make_ogg(argv[2], atof(argv[3]), atof(argv[4]), argc > 5 ? atol(argv[5]) : 44100, 0);
	}
	if (argc == 4 && strcmp(argv[1], "oggfalse") == 0) return make_ogg(argv[2], 0, 0, 44100, atof(argv[3]));
	if (argc == 5 && strcmp(argv[1], "wav") == 0) {
		return make_wav(argv[2], (uint32_t)strtoul(argv[3], NULL, 10), 0, (uint32_t)strtoul(argv[4], NULL, 10));
	}
	if (argc == 6 && strcmp(argv[1], "wav2") == 0) {
		return make_wav(argv[2], (uint32_t)strtoul(argv[3], NULL, 10), (uint32_t)strtoul(argv[4], NULL, 10),
		                (uint32_t)strtoul(argv[5], NULL, 10));
	}
	if (argc == 4 && strcmp(argv[1], "jpegsvg") == 0) return make_jpegsvg(argv[2], (unsigned)strtoul(argv[3], NULL, 10));
	if (argc == 5 && strcmp(argv[1], "png") == 0) {
		return make_png(argv[2], (uint32_t)strtoul(argv[3], NULL, 10), (uint32_t)strtoul(argv[4], NULL, 10));
	}
	return fail("usage: media_gen ogg OUT SECONDS CLAIMED [RATE] | oggfalse OUT MB | wav OUT RATE BYTES | wav2 OUT RATE1 RATE2 BYTES | "
	            "png OUT W H | jpegsvg OUT SIDE");
}
