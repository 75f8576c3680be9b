# parapet — build, test, run. `make help` lists the targets.
CC       ?= cc
PKGS     := libmicrohttpd gnutls jansson sqlite3 libpq libcurl libidn2 libpcap modsecurity libpcre2-8 geoip libmaxminddb libsystemd simdjson libnftables
CFLAGS_BASE := -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wformat=2 \
               -Isrc -Ibuild/gen $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LIBS     := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lpthread -lm -lstdc++
TEST_LIBS := $(shell pkg-config --libs libcurl jansson 2>/dev/null)

# C++ only where DESIGN.md allows it (simdjson on the ingest path)
CXX      ?= g++
CXXFLAGS_BASE := -std=c++17 -Wall -Wextra -Werror -Wshadow -Isrc $(shell pkg-config --cflags simdjson 2>/dev/null)
# UBSan's vptr check needs its C++ runtime, which linking with cc leaves out
CXX_NO_VPTR = $(if $(findstring sanitize,$(OPT)),-fno-sanitize=vptr)

VARIANT  ?= release
ifeq ($(VARIANT),asan)
  OPT := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
else
  OPT := -O2 -g
endif
B        := build/$(VARIANT)
# EXTRA_CFLAGS, EXTRA_LDFLAGS: dpkg-buildflags' hardening flags (debian/rules)
CFLAGS   := $(CFLAGS_BASE) $(OPT) $(EXTRA_CFLAGS)

SRC      := $(shell find src -name '*.c' | sort)
CXX_SRC  := $(shell find src -name '*.cpp' | sort)
BIN_SRC  := src/cli/main.c src/server/tls_hooks.c  # the program only (tls_hooks.c says why)
LIB_SRC  := $(filter-out $(BIN_SRC),$(SRC))
OBJ      := $(LIB_SRC:%.c=$(B)/%.o) $(CXX_SRC:%.cpp=$(B)/%.o) $(B)/gen/migrations.o $(B)/gen/pg_migrations.o $(B)/gen/catalogue_data.o \
            $(B)/gen/console_assets.o
MIGRATIONS := $(sort $(wildcard src/store/sqlite/migrations/*.sql))
PG_MIGRATIONS := $(sort $(wildcard src/store/pgsql/migrations/*.sql))
CATALOGUE := $(sort $(wildcard data/catalogue/*.json))
CONSOLE  := $(shell find console -type f ! -name '.*' | sort)
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)

.PHONY: all build asan deps run test test-unit test-http check fuzz bench clean help console-shots deb demo
all: build

help:
	@echo "make run      install packages, build, start the dev server (credentials printed)"
	@echo "make check    install packages, build, run all tests (normal and ASan+UBSan)"
	@echo "make deb      the Debian package (dpkg-buildpackage -us -uc -b) into build/deb/"
	@echo "make test     unit and HTTPS tests against the release build"
	@echo "make fuzz     run each fuzz target for FUZZ_SECONDS (default 20)"
	@echo "make bench    requests/s, latency, CPU per request vs nginx (bench/run)"
	@echo "make console-shots  screenshots of the web console's main pages into docs/console/"
	@echo "make demo     (root) a DDoS in network namespaces: flood, FastNetMon, nftables, pmacct, dashboards"

build: $(B)/parapet $(B)/test-http $(UNIT_BIN) $(B)/netflow-send $(B)/bench-rate
asan:
	$(MAKE) VARIANT=asan build

deps:
	@scripts/deps.sh

run: deps
	$(MAKE) build
	$(B)/parapet serve --dev $(ARGS)

build/gen/migrations.c: tools/embed-migrations.sh $(MIGRATIONS)
	@mkdir -p $(@D)
	@tools/embed-migrations.sh $@ migrations $(MIGRATIONS)

build/gen/pg_migrations.c: tools/embed-migrations.sh $(PG_MIGRATIONS)
	@mkdir -p $(@D)
	@tools/embed-migrations.sh $@ pg_migrations $(PG_MIGRATIONS)

build/gen/catalogue_data.c: tools/embed-catalogue.sh $(CATALOGUE)
	@mkdir -p $(@D)
	@tools/embed-catalogue.sh $@ $(CATALOGUE)

build/gen/console_assets.c: tools/embed-console.sh $(CONSOLE)
	@mkdir -p $(@D)
	@tools/embed-console.sh $@ console

$(B)/gen/%.o: build/gen/%.c
	@mkdir -p $(@D)
	@echo "  CC    $<"
	@$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(B)/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC    $<"
	@$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(B)/%.o: %.cpp
	@mkdir -p $(@D)
	@echo "  CXX   $<"
	@$(CXX) $(CXXFLAGS_BASE) $(OPT) $(CXX_NO_VPTR) -MMD -MP -c $< -o $@

$(B)/libparapet.a: $(OBJ)
	@rm -f $@
	@ar rcs $@ $^

$(B)/parapet: $(BIN_SRC:%.c=$(B)/%.o) $(B)/libparapet.a
	@echo "  LINK  $@"
	@$(CC) $(CFLAGS) $(EXTRA_LDFLAGS) -o $@ $^ $(LIBS)

$(B)/tests/%: tests/unit/%.c $(B)/libparapet.a $(wildcard tests/unit/*.h)
	@mkdir -p $(@D)
	@echo "  LINK  $@"
	@$(CC) $(CFLAGS) -Itests -o $@ $< $(B)/libparapet.a $(LIBS)

$(B)/test-http: $(wildcard tests/http/*.c tests/http/*.h) $(B)/libparapet.a
	@echo "  LINK  $@"
	@$(CC) $(CFLAGS) -Itests -o $@ $(filter %.c,$^) $(B)/libparapet.a $(LIBS) $(TEST_LIBS)

$(B)/netflow-send: tests/tools/netflow_send.c
	@echo "  LINK  $@"
	@$(CC) $(CFLAGS) -o $@ $<

$(B)/bench-rate: bench/rate.c
	@echo "  LINK  $@"
	@$(CC) $(CFLAGS) -o $@ $< $(shell pkg-config --libs gnutls 2>/dev/null) -lpthread

test: build
	tests/run $(B)

test-unit: build
	tests/run $(B) unit

check: deps
	tests/check

FUZZ_SECONDS ?= 20
fuzz: deps
	tests/fuzz.sh $(FUZZ_SECONDS)

bench:
	bench/run

# root: three network namespaces, a flood and a legitimate flow through
# parapet's nftables scrubber (tests/netns/run); parapet is left running
demo: deps
	$(MAKE) build
	tests/netns/run $(B) --demo

# the web console's main pages at 1280 px and phone width (tests/console/run)
console-shots: build
	tests/console/run $(B) --shots docs/console

# the Debian package (debian/), moved from the parent directory into build/deb/
deb:
	tools/make-deb.sh build/deb

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
