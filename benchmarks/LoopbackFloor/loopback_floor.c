// The machine's floor for the load client's synchronous and fixed-rate modes: the same exchange over loopback TCP
// (by default a request of the load client's NewOrderSingle size, 175 bytes, and a reply of an ExecutionReport with
// stage stamps, 300 bytes), both ends busy-polling non-blocking sockets and pinned, with no work at either end.
// Whatever a venue and its client add comes on top of what this measures. C, so that no runtime's JIT, GC or
// threads are in the measurement.
//
//   loopback_floor sync [--orders N] [--request B] [--reply B] [--server-cpu C] [--client-cpu C]
//   loopback_floor rate [--orders N] [--rate R] [...]
//
// sync: send one request, read its whole reply, repeat (round trip from the send).
// rate: request n is due at start + n/R; the client sends every request already due in one write, then reads
// replies; each reply's latency runs from its request's due time (coordinated-omission corrected), as the load
// client's rate mode reports it. Both modes send a tenth of N (at most 10,000) first as warm-up, not recorded.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    int sync;
    long orders;
    long rate;
    int request;
    int reply;
    int server_cpu;
    int client_cpu;
} options;

static long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

static void pin(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        perror("sched_setaffinity");
    }
}

static void fail(const char *what) {
    perror(what);
    exit(1);
}

static void nodelay_nonblocking(int fd) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    fcntl(fd, F_SETFL, O_NONBLOCK);
}

// Writes all of buf, spinning while the socket's buffer is full.
static void send_all(int fd, const char *buf, long length) {
    for (long done = 0; done < length;) {
        ssize_t n = send(fd, buf + done, (size_t)(length - done), 0);
        if (n > 0) {
            done += n;
        } else if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            fail("send");
        }
    }
}

// The venue's stand-in: answers every whole request with one reply, polling without blocking.
static void serve(int listener, const options *o) {
    pin(o->server_cpu);
    int fd = accept(listener, NULL, NULL);
    if (fd < 0) {
        fail("accept");
    }

    nodelay_nonblocking(fd);
    char *in = malloc(1 << 20);
    char *out = calloc(1, (size_t)o->reply * 4096);
    long pending = 0;
    for (;;) {
        ssize_t n = recv(fd, in, 1 << 20, 0);
        if (n == 0) {
            exit(0);
        }

        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                continue;
            }

            fail("recv");
        }

        pending += n;
        long replies = pending / o->request;
        pending -= replies * o->request;
        while (replies > 0) {
            long batch = replies < 4096 ? replies : 4096;
            send_all(fd, out, batch * o->reply);
            replies -= batch;
        }
    }
}

static int compare_longs(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static void report(const char *what, long *latencies, long n) {
    qsort(latencies, (size_t)n, sizeof(long), compare_longs);
    double sum = 0;
    for (long i = 0; i < n; i++) {
        sum += (double)latencies[i];
    }

    printf("%s, us: n=%ld min %.1f mean %.1f p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f\n", what, n,
           latencies[0] / 1e3, sum / n / 1e3, latencies[n / 2] / 1e3, latencies[n * 9 / 10] / 1e3,
           latencies[n * 99 / 100] / 1e3, latencies[n * 999 / 1000] / 1e3, latencies[n - 1] / 1e3);
}

static void run_sync(int fd, const options *o, long warmup) {
    char *request = calloc(1, (size_t)o->request);
    char *in = malloc(1 << 16);
    long *latencies = malloc(sizeof(long) * (size_t)o->orders);
    for (long i = -warmup; i < o->orders; i++) {
        long sent = now_ns();
        send_all(fd, request, o->request);
        for (long got = 0; got < o->reply;) {
            ssize_t n = recv(fd, in, 1 << 16, 0);
            if (n > 0) {
                got += n;
            } else if (n == 0) {
                fail("peer closed");
            }
        }

        if (i >= 0) {
            latencies[i] = now_ns() - sent;
        }
    }

    report("round trip (from send)", latencies, o->orders);
}

static void run_rate(int fd, const options *o, long warmup) {
    long total = warmup + o->orders;
    long period = 1000000000L / o->rate;
    char *requests = calloc(256, (size_t)o->request);
    char *in = malloc(1 << 20);
    long *latencies = malloc(sizeof(long) * (size_t)o->orders);
    long start = now_ns() + 1000000;
    long sent = 0, answered = 0, partial = 0;
    while (answered < total) {
        long now = now_ns();
        long due = now < start ? 0 : (now - start) / period + 1;
        if (due > total) {
            due = total;
        }

        if (due > sent) {
            long batch = due - sent < 256 ? due - sent : 256;
            send_all(fd, requests, batch * o->request);
            sent += batch;
        }

        ssize_t n = recv(fd, in, 1 << 20, 0);
        if (n > 0) {
            partial += n;
            long received = now_ns();
            for (; partial >= o->reply; partial -= o->reply, answered++) {
                if (answered >= warmup) {
                    latencies[answered - warmup] = received - (start + answered * period);
                }
            }
        } else if (n == 0) {
            fail("peer closed");
        }
    }

    printf("rate %ld/s, %ld orders\n", o->rate, o->orders);
    report("round trip (from intended send time, coordinated-omission corrected)", latencies, o->orders);
}

static long arg_value(int argc, char **argv, int *i) {
    if (*i + 1 >= argc) {
        fprintf(stderr, "%s needs a value\n", argv[*i]);
        exit(2);
    }

    return strtol(argv[++*i], NULL, 10);
}

int main(int argc, char **argv) {
    options o = {.sync = 1, .orders = 20000, .rate = 50000, .request = 175, .reply = 300, .server_cpu = 0, .client_cpu = 1};
    if (argc < 2 || (strcmp(argv[1], "sync") != 0 && strcmp(argv[1], "rate") != 0)) {
        fprintf(stderr, "usage: %s sync|rate [--orders N] [--rate R] [--request B] [--reply B] [--server-cpu C] [--client-cpu C]\n", argv[0]);
        return 2;
    }

    o.sync = strcmp(argv[1], "sync") == 0;
    if (!o.sync) {
        o.orders = 200000;
    }

    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--orders") == 0) o.orders = arg_value(argc, argv, &i);
        else if (strcmp(argv[i], "--rate") == 0) o.rate = arg_value(argc, argv, &i);
        else if (strcmp(argv[i], "--request") == 0) o.request = (int)arg_value(argc, argv, &i);
        else if (strcmp(argv[i], "--reply") == 0) o.reply = (int)arg_value(argc, argv, &i);
        else if (strcmp(argv[i], "--server-cpu") == 0) o.server_cpu = (int)arg_value(argc, argv, &i);
        else if (strcmp(argv[i], "--client-cpu") == 0) o.client_cpu = (int)arg_value(argc, argv, &i);
        else {
            fprintf(stderr, "unknown argument %s\n", argv[i]);
            return 2;
        }
    }

    if (o.orders < 1 || o.rate < 1 || o.request < 1 || o.reply < 1) {
        fprintf(stderr, "orders, rate and sizes must be positive\n");
        return 2;
    }

    int listener = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK), .sin_port = 0};
    socklen_t length = sizeof address;
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 1) != 0 ||
        getsockname(listener, (struct sockaddr *)&address, &length) != 0) {
        fail("listen");
    }

    pid_t server = fork();
    if (server == 0) {
        serve(listener, &o);
    }

    pin(o.client_cpu);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        fail("connect");
    }

    nodelay_nonblocking(fd);
    long warmup = o.orders / 10 < 10000 ? o.orders / 10 : 10000;
    printf("loopback floor: %s, request %d B, reply %d B, server on CPU %d, client on CPU %d, warm-up %ld\n",
           o.sync ? "sync" : "rate", o.request, o.reply, o.server_cpu, o.client_cpu, warmup);
    if (o.sync) {
        run_sync(fd, &o, warmup);
    } else {
        run_rate(fd, &o, warmup);
    }

    close(fd);
    waitpid(server, NULL, 0);
    return 0;
}
