import { ethereumData, howToGetData } from "../../../datasets/benchmark-data.js";

/**
 * The ethereum-etl records the citation benches and tests load: `VERACITY_DATASETS_DIR/ethereum`, else the
 * fetched `ethereum-etl` dataset. Throws when neither exists; check `missingEthereumData()` first.
 */
export const ethereumDirectory = (): string => {
  const dir = ethereumData(process.env);
  if (dir === undefined) throw new Error(`no ethereum-etl records: ${howToGetData} (ethereum-etl)`);
  return dir;
};

/** Why a suite needing the ethereum-etl records is skipped, or undefined when the data is there. */
export const missingEthereumData = (): string | undefined =>
  ethereumData(process.env) === undefined
    ? `no ethereum-etl records: ${howToGetData} (ethereum-etl)`
    : undefined;
