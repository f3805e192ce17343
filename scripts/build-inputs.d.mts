export declare const buildInputs: string[];
