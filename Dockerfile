# One image for every Game Night service; compose.yml picks the module to run.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine engine
COPY protocol protocol
COPY services services
COPY clients clients
RUN pip install --no-cache-dir .
RUN useradd --system gamenight && mkdir /data && chown gamenight /data
USER gamenight
VOLUME /data
