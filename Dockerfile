# Builds and runs the Duelhall server on Debian bookworm, the same packages as scripts/.
FROM debian:bookworm AS build
WORKDIR /src
COPY scripts/install-deps.sh scripts/
RUN DUELHALL_WITH_BROWSER=0 scripts/install-deps.sh && apt-get install -y -q --no-install-recommends nodejs npm
COPY . .
RUN cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DDUELHALL_BUILD_TESTS=OFF \
      -DDUELHALL_BUILD_BENCH=OFF \
 && cmake --build build \
 && if [ -f clients/web/package.json ]; then scripts/build-web.sh; fi

FROM debian:bookworm-slim
RUN apt-get update -q && apt-get install -y -q --no-install-recommends libprotobuf32 libspdlog1.10 \
      libsqlite3-0 libpq5 libssl3 libtomlplusplus3 libsodium23 libhiredis0.14 libicu72 && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/build/server/app/duelhall /usr/local/bin/duelhall
COPY --from=build /src/clients/web/dist /usr/share/duelhall/web
EXPOSE 8080
VOLUME /var/lib/duelhall
ENTRYPOINT ["duelhall", "--bind", "0.0.0.0", "--data", "/var/lib/duelhall", "--web-root", "/usr/share/duelhall/web"]
