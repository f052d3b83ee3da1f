# One image for every Game Night service; compose.yml picks the module to run.
FROM python:3.11-slim
WORKDIR /app
# setup.py: the compiled solver, built only where a C compiler exists (not in the slim
# image: the engine's pure-Python solver answers there, the same but slower).
COPY pyproject.toml setup.py README.md ./
COPY engine engine
COPY protocol protocol
COPY services services
COPY clients clients
RUN pip install --no-cache-dir .
RUN useradd --system gamenight && mkdir /data && chown gamenight /data
USER gamenight
VOLUME /data
