/*
 * The benchmark's C floor (`make bench`): the least a static site generator must do to turn
 * holocron's pages into a site, written plainly in C. It reads the pages' Markdown (as
 * `cmark-floor --dump-markdown`, the bench's tool in StarWars/, wrote it), converts each with cmark on as many
 * threads as it is given, and writes the HTML to the same folder-per-page tree a build
 * writes. No layout, no links, no manifest: a build's time over this one's is what the rest
 * of holocron's work costs.
 *
 *     floor PAGES.TSV CONTENT OUTPUT THREADS
 *
 * PAGES.TSV holds one page a line, "markdown-path<TAB>site-path", both relative. A Markdown
 * file may open with an empty front matter ("---\n---\n", for Hugo), which is skipped.
 */
#include <cmark.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct page { char *markdown; char *site; };

static struct page *pages;
static size_t page_count;
static int content_folder, output_folder, threads;

static void fail(const char *what, const char *path) {
    fprintf(stderr, "floor: %s %s: %s\n", what, path, strerror(errno));
    exit(1);
}

/* Makes every folder of `path` (relative to the output) up to its last slash: the page's own
 * folder first, which is one call when its parent is there (as it is for all but the first
 * page of a section), and each folder from the top only when it is not. */
static void make_folders(char *path) {
    char *last = strrchr(path, '/');
    if (!last) return;
    *last = 0;
    int made = mkdirat(output_folder, path, 0755) == 0 || errno == EEXIST;
    *last = '/';
    if (made) return;
    for (char *slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = 0;
        if (mkdirat(output_folder, path, 0755) != 0 && errno != EEXIST) fail("cannot make", path);
        *slash = '/';
    }
}

static void *convert(void *lane_pointer) {
    size_t lane = (size_t)lane_pointer;
    char *buffer = NULL;
    size_t capacity = 0;
    for (size_t index = lane; index < page_count; index += (size_t)threads) {
        struct page *page = &pages[index];
        int in = openat(content_folder, page->markdown, O_RDONLY | O_CLOEXEC);
        struct stat status;
        if (in < 0 || fstat(in, &status) != 0) fail("cannot read", page->markdown);
        size_t size = (size_t)status.st_size;
        if (size + 1 > capacity) {
            capacity = size + 1;
            buffer = realloc(buffer, capacity);
        }
        size_t got = 0;
        while (got < size) {
            ssize_t part = read(in, buffer + got, size - got);
            if (part <= 0) fail("cannot read", page->markdown);
            got += (size_t)part;
        }
        close(in);
        /* The empty front matter the dump opens each file with, for Hugo, is not the page's. */
        size_t skip = size >= 8 && memcmp(buffer, "---\n---\n", 8) == 0 ? 8 : 0;
        char *html = cmark_markdown_to_html(buffer + skip, size - skip, CMARK_OPT_VALIDATE_UTF8);
        make_folders(page->site);
        int out = openat(output_folder, page->site, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (out < 0) fail("cannot write", page->site);
        size_t length = strlen(html), written = 0;
        while (written < length) {
            ssize_t part = write(out, html + written, length - written);
            if (part <= 0) fail("cannot write", page->site);
            written += (size_t)part;
        }
        close(out);
        free(html);
    }
    free(buffer);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: floor PAGES.TSV CONTENT OUTPUT THREADS\n");
        return 2;
    }
    FILE *list = fopen(argv[1], "r");
    if (!list) fail("cannot read", argv[1]);
    size_t capacity = 1024;
    pages = malloc(capacity * sizeof *pages);
    char *line = NULL;
    size_t line_capacity = 0;
    ssize_t length;
    while ((length = getline(&line, &line_capacity, list)) > 0) {
        if (line[length - 1] == '\n') line[length - 1] = 0;
        char *tab = strchr(line, '\t');
        if (!tab) continue;
        *tab = 0;
        if (page_count == capacity) pages = realloc(pages, (capacity *= 2) * sizeof *pages);
        pages[page_count++] = (struct page){strdup(line), strdup(tab + 1)};
    }
    fclose(list);
    if (mkdir(argv[3], 0755) != 0 && errno != EEXIST) fail("cannot make", argv[3]);
    content_folder = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    output_folder = open(argv[3], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (content_folder < 0) fail("cannot open", argv[2]);
    if (output_folder < 0) fail("cannot open", argv[3]);
    threads = atoi(argv[4]);
    if (threads < 1) threads = 1;
    pthread_t workers[threads];
    for (int lane = 0; lane < threads; lane++) pthread_create(&workers[lane], NULL, convert, (void *)(size_t)lane);
    for (int lane = 0; lane < threads; lane++) pthread_join(workers[lane], NULL);
    printf("floor: %zu pages\n", page_count);
    return 0;
}
