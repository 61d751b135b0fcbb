/* alphabeta.c: a small Connect-X engine speaking zerosum's engine protocol, version 1 (docs/protocol.md).
 *
 * Any board whose bitboard fits 64 bits (cols x (rows + 1) <= 64), any line length k.  Negamax alpha-beta
 * with iterative deepening and centre-first ordering; a proven win or loss is reported as "score exact S"
 * (the solver's convention), anything else as "score est E" (a count of open lines).  go's depth, nodes,
 * movetime and clocks are honoured (a go with none of them: a second); a malformed go is refused; stop,
 * quit and isready are read during a search (every 4096 nodes).
 *
 *     cc -O2 -o alphabeta examples/engines/alphabeta.c
 *     zerosum engine-check ./alphabeta
 */
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LINE 8192
#define WIN 100000
typedef uint64_t bb;

static int rows = 6, cols = 7, k = 4, height, cells, ply;
static bb own, all;                      /* the side to move's stones, every stone */
static int has_position;
static long nodes, node_limit;
static double deadline;                  /* monotonic seconds; 0: none */
static int stopped, quitting;
static char pending[64][LINE];           /* commands read during a search, handled after it */
static int npending;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* one line out; the text put in (a piece of a line read) loses its control characters, as lines must */
static void say(const char *fmt, const char *text) {
    char clean[LINE];
    int n = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c && n < LINE - 1; c++) {
        int c1 = *c == 0xC2 && c[1] >= 0x80 && c[1] <= 0x9F;   /* U+0080..U+009F in UTF-8 */
        clean[n++] = *c < 0x20 || *c == 0x7F || c1 ? '?' : *c;
        c += c1;
    }
    clean[n] = 0;
    printf(fmt, clean);
    fflush(stdout);
}

/* ---- reading lines from standard input, without stdio's buffer (so poll sees what is waiting) ---- */
static char inbuf[1 << 16];
static int inlen, ineof;

static int read_line(char *out, int block) {     /* 1: a line in out; 0: none waiting (or the end) */
    for (;;) {
        char *nl = memchr(inbuf, '\n', inlen);
        if (nl) {
            int n = nl - inbuf, m = n < LINE - 1 ? n : LINE - 1;
            memcpy(out, inbuf, m);
            out[m] = 0;
            if (m && out[m - 1] == '\r') out[m - 1] = 0;
            memmove(inbuf, nl + 1, inlen - n - 1);
            inlen -= n + 1;
            return 1;
        }
        if (inlen == (int)sizeof inbuf) inlen = 0;   /* a line too long: dropped */
        if (ineof) return 0;
        if (!block) {
            struct pollfd p = {0, POLLIN, 0};
            if (poll(&p, 1, 0) <= 0) return 0;
        }
        ssize_t got = read(0, inbuf + inlen, sizeof inbuf - inlen);
        if (got <= 0) { ineof = 1; if (inlen) { inbuf[inlen++] = '\n'; continue; } return 0; }
        inlen += got;
    }
}

/* ---- the board ---- */
static bb column_mask(int c) { return (((bb)1 << rows) - 1) << (c * height); }  /* rows < 64 */
static bb top_cell(int c) { return (bb)1 << (rows - 1 + c * height); }
static bb bottom_cell(int c) { return (bb)1 << (c * height); }
static int can_play(int c) { return (all & top_cell(c)) == 0; }

static int has_line(bb b) {
    int dirs[4] = {1, height, height - 1, height + 1};
    for (int d = 0; d < 4; d++) {
        bb m = b;
        for (int i = 1; i < k && m; i++) m &= b >> (i * dirs[d]);
        if (m) return 1;
    }
    return 0;
}

static int open_lines(bb mine, bb theirs) {  /* lines of k cells still open for mine, minus for theirs */
    int score = 0, dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (int c = 0; c < cols; c++)
        for (int r = 0; r < rows; r++)
            for (int d = 0; d < 4; d++) {
                int ec = c + (k - 1) * dirs[d][0], er = r + (k - 1) * dirs[d][1];
                if (ec >= cols || er < 0 || er >= rows) continue;
                bb line = 0;
                for (int i = 0; i < k; i++) line |= (bb)1 << ((c + i * dirs[d][0]) * height + r + i * dirs[d][1]);
                score += !(line & theirs) - !(line & mine);
            }
    return score;
}

static int order[64];

static int negamax(int depth, int alpha, int beta, int dist) {
    nodes++;
    if ((nodes & 4095) == 0) {
        char line[LINE];
        if (deadline && now() >= deadline) stopped = 1;
        while (!stopped && npending < 64 && read_line(line, 0)) {  /* 64 waiting: the rest stays unread */
            if (!strcmp(line, "stop")) stopped = 1;
            else if (!strcmp(line, "quit")) stopped = quitting = 1;
            else if (!strcmp(line, "isready")) say("%s\n", "readyok");
            else strcpy(pending[npending++], line);
        }
    }
    if (node_limit && nodes >= node_limit) stopped = 1;
    if (stopped) return 0;
    if (ply == cells) return 0;
    for (int i = 0; i < cols; i++) {     /* a win now ends the search here */
        int c = order[i];
        if (can_play(c) && has_line(own | ((all + bottom_cell(c)) & column_mask(c)))) return WIN - dist - 1;
    }
    if (depth == 0) return open_lines(own, all ^ own);
    int best = -WIN;
    for (int i = 0; i < cols; i++) {
        int c = order[i];
        if (!can_play(c)) continue;
        bb o = own, a = all;
        int p = ply;
        own ^= all; all |= all + bottom_cell(c); ply++;
        int v = -negamax(depth - 1, -beta, -alpha, dist + 1);
        own = o; all = a; ply = p;
        if (stopped) return 0;
        if (v > best) best = v;
        if (v > alpha) alpha = v;
        if (alpha >= beta) break;
    }
    return best;
}

static int setup(const char *spec, const char *moves) {   /* 1: the position is set */
    char buf[LINE];
    int r = 6, c = 7, kk = 4;
    has_position = 0;
    if (!strcmp(spec, "connect4")) { }
    else if (!strncmp(spec, "connectx", 8) && (spec[8] == 0 || spec[8] == ':')) {
        strncpy(buf, spec[8] ? spec + 9 : "", LINE - 1); buf[LINE - 1] = 0;
        for (char *opt = strtok(buf, ","); opt; opt = strtok(NULL, ",")) {
            if (!strncmp(opt, "rows=", 5)) r = atoi(opt + 5);
            else if (!strncmp(opt, "cols=", 5)) c = atoi(opt + 5);
            else if (!strncmp(opt, "k=", 2)) kk = atoi(opt + 2);
            else { say("info string error unknown option in %s\n", spec); return 0; }
        }
    } else { say("info string error this engine plays connectx, not %s\n", spec); return 0; }
    if (r < 1 || c < 1 || kk < 2 || c * (r + 1) > 64) {
        say("info string error %s does not fit in 64 bits (cols x (rows + 1) <= 64)\n", spec); return 0;
    }
    rows = r; cols = c; k = kk; height = r + 1; cells = r * c; ply = 0; own = all = 0;
    for (int i = 0; i < cols; i++) order[i] = cols / 2 + (i % 2 ? (i + 1) / 2 : -(i / 2)) * (cols % 2 ? 1 : -1);
    int commas = strchr(moves, ',') != NULL;
    for (const char *m = moves; *m;) {
        if (*m == ',' || *m == ' ' || *m == '\t') { m++; continue; }
        int col = 0;
        if (*m < '0' || *m > '9') { say("info string error bad move in %s\n", moves); return 0; }
        if (commas || cols > 9) while (*m >= '0' && *m <= '9') col = col * 10 + (*m++ - '0');
        else col = *m++ - '0';
        col--;
        if (col < 0 || col >= cols || !can_play(col) || ply == cells || has_line(all ^ own)) {
            say("info string error illegal move in %s\n", moves); return 0;
        }
        own ^= all; all |= all + bottom_cell(col); ply++;
    }
    return has_position = 1;
}

static const char *GO_FIELDS[7] = {"movetime", "nodes", "depth", "ftime", "stime", "finc", "sinc"};

/* go's fields into v (-1: not given); 0 when the line is malformed: an unknown or repeated field, a value
 * that is not a whole number, a limit of 0, one clock without the other, an increment without the clocks */
static int go_field(const char *w) {     /* its index in GO_FIELDS, 7 for a field this version does not know */
    int i = 0;
    while (i < 7 && strcmp(w, GO_FIELDS[i])) i++;
    return i;
}

static int is_field_name(const char *w) {  /* a letter, then letters, digits, _ and - */
    if (!((*w >= 'a' && *w <= 'z') || (*w >= 'A' && *w <= 'Z'))) return 0;
    for (; *w; w++)
        if (!((*w >= 'a' && *w <= 'z') || (*w >= 'A' && *w <= 'Z') || (*w >= '0' && *w <= '9') || *w == '_' || *w == '-'))
            return 0;
    return 1;
}

static int parse_go(char *args, long v[7]) {
    for (int i = 0; i < 7; i++) v[i] = -1;
    char *w = strtok(args, " \t");
    while (w) {
        int i = go_field(w);
        if (i == 7) {                        /* a later version's field: skipped with the words after it */
            if (!is_field_name(w)) return 0;
            do w = strtok(NULL, " \t"); while (w && go_field(w) == 7);
            continue;
        }
        char *x = strtok(NULL, " \t"), *end;
        if (!x || v[i] >= 0 || *x < '0' || *x > '9' || strlen(x) > 18) return 0;
        v[i] = strtol(x, &end, 10);
        if (*end || (i < 3 && v[i] == 0)) return 0;
        w = strtok(NULL, " \t");
    }
    return (v[3] < 0) == (v[4] < 0) && (v[3] >= 0 || (v[5] < 0 && v[6] < 0));
}

static void go(const long v[7]) {
    long depth = v[2] > 0 ? v[2] : 64, movetime = v[0] > 0 ? v[0] : 0, fclock = v[3], sclock = v[4];
    long finc = v[5] > 0 ? v[5] : 0, sinc = v[6] > 0 ? v[6] : 0;
    node_limit = v[1] > 0 ? v[1] : 0;
    if (v[0] < 0 && v[1] < 0 && v[2] < 0 && v[3] < 0) movetime = 1000;   /* no limit given: a second */
    if (!has_position) { say("%s\n", "info string error no position: send position first"); say("%s\n", "bestmove (none)"); return; }
    if (ply == cells || has_line(all ^ own)) { say("%s\n", "info string error the game is over"); say("%s\n", "bestmove (none)"); return; }
    double start = now(), budget = movetime / 1000.0;
    long left = ply % 2 == 0 ? fclock : sclock, inc = ply % 2 == 0 ? finc : sinc;
    if (left >= 0) {
        double share = (left / (double)((cells - ply + 1) / 2 + 1) + 0.75 * inc) / 1000.0, cap = (0.8 * left - 20) / 1000.0;
        if (share > cap) share = cap;
        if (share < 0.001) share = 0.001;
        if (!budget || share < budget) budget = share;
    }
    deadline = budget > 0 ? start + budget : 0;
    stopped = 0; nodes = 0;
    int best = -1;
    for (int i = 0; i < cols; i++) if (can_play(order[i])) { best = order[i]; break; }
    if (depth > cells - ply) depth = cells - ply;
    for (int d = 1; d <= depth && !stopped; d++) {
        int alpha = -WIN - 1, chosen = -1, score = -WIN - 1;
        for (int i = 0; i < cols; i++) {
            int c = order[i];
            if (!can_play(c)) continue;
            bb o = own, a = all;
            int p = ply, v;
            own ^= all; all |= all + bottom_cell(c); ply++;
            v = has_line(all ^ own) ? WIN - 1 : -negamax(d - 1, -WIN - 1, -alpha, 1);
            own = o; all = a; ply = p;
            if (stopped) break;
            if (v > score) { score = v; chosen = c; }
            if (v > alpha) alpha = v;
        }
        if (stopped || chosen < 0) break;
        best = chosen;
        long ms = (long)((now() - start) * 1000);
        if (score > WIN - 1000 || score < -WIN + 1000) {
            int dist = WIN - (score > 0 ? score : -score), last = ply + dist;  /* the winning stone's ply */
            int s = (cells + 2 - last) / 2;
            printf("info depth %d nodes %ld time %ld score exact %d pv %d\n", d, nodes, ms, score > 0 ? s : -s, best + 1);
            fflush(stdout);
            break;
        }
        printf("info depth %d nodes %ld time %ld score est %d pv %d\n", d, nodes, ms, score, best + 1);
        fflush(stdout);
    }
    printf("bestmove %d\n", best + 1);
    fflush(stdout);
}

static int handle(char *line) {          /* 0 after quit */
    char *word = strtok(line, " \t"), *rest = strtok(NULL, "");
    int bare = !rest || !rest[strspn(rest, " \t")];   /* nothing after the word */
    if (!word) return 1;
    if (!bare && (!strcmp(word, "isready") || !strcmp(word, "quit") || !strcmp(word, "stop")
                  || !strcmp(word, "newgame"))) {
        say("info string error malformed %s: nothing may follow\n", word);
        return 1;
    }
    if (!strcmp(word, "zsp")) {
        say("%s\n", "id name alphabeta.c (zerosum example)");
        say("%s\n", "id author the zerosum authors");
        say("%s\n", "game connectx");
        say("%s\n", "zspok");
    } else if (!strcmp(word, "isready")) say("%s\n", "readyok");
    else if (!strcmp(word, "quit")) return 0;
    else if (!strcmp(word, "position")) {
        char *spec = rest ? strtok(rest, " \t") : NULL, *key = spec ? strtok(NULL, " \t") : NULL;
        char *moves = key ? strtok(NULL, "") : NULL;
        if (!spec) say("%s\n", "info string error position SPEC [moves MOVES]");
        else if (key && strcmp(key, "moves")) { has_position = 0; say("info string error expected moves, not %s\n", key); }
        else setup(spec, moves ? moves : "");
    } else if (!strcmp(word, "go")) {
        char args[LINE] = "";
        long fields[7];
        if (rest) strncpy(args, rest, LINE - 1);
        if (!parse_go(args, fields)) { say("%s\n", "info string error malformed go"); return 1; }
        go(fields);
        while (npending && !quitting) {  /* what came during the search */
            char next[LINE];
            strcpy(next, pending[0]);
            memmove(pending, pending + 1, sizeof pending[0] * --npending);
            if (!handle(next)) return 0;
        }
        if (quitting) return 0;
    } else if (!strcmp(word, "setoption")) say("%s\n", "info string error this engine has no options");
    return 1;                             /* newgame, stop and unknown commands: nothing to do */
}

int main(void) {
    char line[LINE];
    while (read_line(line, 1))
        if (!handle(line)) break;
    return 0;
}
